#!/bin/sh
# gemm_peaks: a TEST DOUBLE for scripts/gemm_peaks.py (`hprun peaks --vendor`), for hprun's tests
# only; they pass it with --vendor-program. It prints what the script prints, with the vendor-GEMM
# figures gemm_probe.py measured on an H200 (torch.matmul and torch._scaled_mm at n=8192,
# docs/roofline.md), and reads no device. With `fail` it exits 1 after a message, as the script
# does without torch.
if [ "${1-}" = fail ]; then
  echo "gemm_peaks: no PyTorch in this python3 (No module named 'torch')" >&2
  exit 1
fi
echo "gemm_peaks: torch 2.11.0+cu130 (CUDA 13.0), NVIDIA H200, cuBLASLt through torch.matmul, n=8192, 50 launches"
echo "gemm_peaks: bf16 torch.matmul 1.3857 ms, 793.5 TFLOP/s"
echo "gemm_peaks: fp16 torch.matmul 1.4549 ms, 755.7 TFLOP/s"
echo "gemm_peaks: tf32 torch.matmul 2.8916 ms, 380.2 TFLOP/s"
echo "gemm_peaks: fp8 e4m3 torch._scaled_mm 0.7844 ms, 1401.8 TFLOP/s"
echo "device=NVIDIA_H200 matrix_source=cuBLASLt peak_bf16_matrix_tflops=793.5 peak_fp16_matrix_tflops=755.7 peak_tf32_matrix_tflops=380.2 peak_fp8_matrix_tflops=1401.8"
