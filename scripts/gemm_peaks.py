#!/usr/bin/env python3
"""Vendor-GEMM matrix ceilings for `hprun peaks --vendor` (docs/roofline.md).

Times torch.matmul on square n x n matrices (cuBLASLt underneath on NVIDIA, hipBLASLt or rocBLAS
on ROCm) at bf16, fp16 and tf32, and fp8 e4m3 through torch._scaled_mm where the GPU and the
torch build have it: 5 warm-up and ITERS timed launches between CUDA events, 2*n^3 FLOP each.
The vendor's own kernels (wgmma on Hopper) reach the attainable matrix roof that the WMMA kernels
of hip/roofline_peaks cannot. Clocks are left alone.

It prints one line per precision, then the result line `hprun peaks` parses:
  device=NVIDIA_H200 matrix_source=cuBLASLt peak_bf16_matrix_tflops=793.5 ...
A precision the GPU or torch lacks is said on stderr and left out; no precision at all exits 1.
Usage: gemm_peaks.py [N [ITERS]]   (default 8192 50)
"""
import sys


def timed(fn, iters, torch):
    for _ in range(5):
        fn()
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(iters):
        fn()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end) / iters  # milliseconds per launch


def main():
    try:
        import torch
    except ImportError as ex:
        sys.exit(f"gemm_peaks: no PyTorch in this python3 ({ex})")
    if not torch.cuda.is_available():
        sys.exit("gemm_peaks: torch sees no GPU")
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 8192
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    hip = getattr(torch.version, "hip", None)
    lib = "hipBLASLt" if hip else "cuBLASLt"
    print(f"gemm_peaks: torch {torch.__version__} ({'ROCm ' + hip if hip else 'CUDA ' + str(torch.version.cuda)}), "
          f"{torch.cuda.get_device_name()}, {lib} through torch.matmul, n={n}, {iters} launches", flush=True)
    peaks = {}

    def matmul(name, dtype):
        a = torch.randn(n, n, device="cuda").to(dtype)
        b = torch.randn(n, n, device="cuda").to(dtype)
        return name, lambda: a @ b

    # tf32: float32 operands on the tensor cores (NVIDIA TF32, AMD's xf32 where hipBLASLt has it).
    cases = [("bf16", torch.bfloat16), ("fp16", torch.float16), ("tf32", torch.float32)]
    torch.backends.cuda.matmul.allow_tf32 = True
    for name, dtype in cases:
        try:
            name, fn = matmul(name, dtype)
            ms = timed(fn, iters, torch)
        except RuntimeError as ex:
            print(f"gemm_peaks: {name}: {ex}", file=sys.stderr)
            continue
        peaks[name] = 2 * n**3 / ms / 1e9
        print(f"gemm_peaks: {name} torch.matmul {ms:.4f} ms, {peaks[name]:.1f} TFLOP/s", flush=True)
    try:
        fp8 = getattr(torch, "float8_e4m3fnuz" if hip else "float8_e4m3fn")
        a = torch.randn(n, n, device="cuda").to(fp8)
        b = torch.randn(n, n, device="cuda").to(fp8).t()  # _scaled_mm wants b column-major
        one = torch.tensor(1.0, device="cuda")
        ms = timed(lambda: torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16),
                   iters, torch)
        peaks["fp8"] = 2 * n**3 / ms / 1e9
        print(f"gemm_peaks: fp8 e4m3 torch._scaled_mm {ms:.4f} ms, {peaks['fp8']:.1f} TFLOP/s", flush=True)
    except (AttributeError, RuntimeError) as ex:
        print(f"gemm_peaks: fp8: not measured ({str(ex).splitlines()[0] if str(ex) else ex})",
              file=sys.stderr)
    if not peaks:
        sys.exit("gemm_peaks: no precision could be measured")
    device = torch.cuda.get_device_name().replace(" ", "_")
    fields = " ".join(f"peak_{k}_matrix_tflops={v:.1f}" for k, v in peaks.items())
    print(f"device={device} matrix_source={lib} {fields}")


if __name__ == "__main__":
    main()
