#!/usr/bin/env python3
"""Time GPU work in PyTorch with device events and print hprun metric lines.

The PyTorch counterpart of hip/hprun_timer.h. Device events (torch.cuda.Event with
enable_timing=True; the same API on ROCm/DTK builds of PyTorch, where "cuda" means HIP) bracket
exactly the GPU work queued between them, so the time is the device's, not the host's
submission time. Results are printed as `name=value` fields on one line, numbers with "%.7g",
flushed at once: the format hprun plans match, for example

    metrics: [{name: mean_matmul_ms, pattern: 'mean_matmul_ms=([0-9.eE+-]+)', unit: ms}]

Use from Python (torch is imported only when timing, so the printing helpers work anywhere):

    from torch_timer import time_gpu, print_metrics
    ms = time_gpu(lambda: model(x), warmup=20, iters=100)
    print_metrics(mean_forward_ms=ms)

    with GpuTimer(iters=100) as t:          # times whatever the block queues
        for _ in range(100):
            y = model(x)
    print_metrics(mean_forward_ms=t.mean_ms)

From the shell:  python3 scripts/torch_timer.py --demo [--size 4096] [--dtype float32]
Exit status: 0 ok; 2 usage; 3 PyTorch missing or no GPU visible to it.
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any, Callable, Optional, TextIO

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_NO_GPU = 3

METRIC_FORMAT = "%.7g"
_BLANKS = " \t\r\n\v\f="


class NoGpuError(RuntimeError):
    """PyTorch is not installed, or it sees no GPU."""


def format_value(value: Any) -> str:
    """One field's value as hprun expects it: numbers with %.7g, strings as one token.

    Booleans and integers print as integers; floats as %.7g (nan/inf stay as such, which the
    documented pattern does not match, so hprun reports the metric missing rather than wrong).
    In strings every blank and '=' becomes '_', and an empty string becomes "unknown".
    """
    if isinstance(value, bool):
        return str(int(value))
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return METRIC_FORMAT % value
    text = str(value)
    if not text:
        return "unknown"
    return "".join("_" if c in _BLANKS else c for c in text)


def format_metrics(**fields: Any) -> str:
    """The result line (without newline) for `fields`, in the order given."""
    return " ".join(f"{name}={format_value(value)}" for name, value in fields.items())


def print_metrics(file: Optional[TextIO] = None, **fields: Any) -> None:
    """Prints one result line of `fields` and flushes, so a later crash cannot lose it."""
    out = file if file is not None else sys.stdout
    out.write(format_metrics(**fields) + "\n")
    out.flush()


def _torch():
    """Imports torch and checks for a GPU; raises NoGpuError with a message that says which."""
    try:
        import torch  # noqa: PLC0415 (deliberately lazy: the helpers above need no torch)
    except ImportError as exc:
        raise NoGpuError(f"PyTorch is not installed (import torch: {exc})") from exc
    if not torch.cuda.is_available():
        if getattr(torch.version, "hip", None):
            build = f"built for HIP {torch.version.hip}"
        elif getattr(torch.version, "cuda", None):
            build = f"built for CUDA {torch.version.cuda}"
        else:
            build = "a CPU-only build"
        raise NoGpuError(
            f"PyTorch {torch.__version__} ({build}) sees no GPU: "
            "torch.cuda.is_available() is False"
        )
    return torch


class GpuTimer:
    """Context manager: device time of the GPU work queued inside the block.

    On exit it records the stop event, waits for it, and sets `elapsed_ms` (the whole block)
    and `mean_ms` (elapsed_ms / iters). `stream` defaults to the current stream. The block's
    host code is not what is measured; work queued on other streams is not either. It does no
    warmup: a block that makes the first call of a library (cuBLAS handle creation, kernel
    autotuning) times that too, so warm up before it or use time_gpu().
    """

    def __init__(self, iters: int = 1, stream: Any = None) -> None:
        if iters < 1:
            raise ValueError(f"iters must be >= 1, got {iters}")
        self.iters = iters
        self.stream = stream
        self.elapsed_ms = math.nan
        self.mean_ms = math.nan
        self._start = None
        self._stop = None

    def __enter__(self) -> "GpuTimer":
        torch = _torch()
        self._start = torch.cuda.Event(enable_timing=True)
        self._stop = torch.cuda.Event(enable_timing=True)
        self._start.record(self.stream)
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        # An exception inside the block leaves nothing worth timing; still record so the
        # events are not left half-used, but keep the results nan.
        self._stop.record(self.stream)
        self._stop.synchronize()
        if exc_type is None:
            self.elapsed_ms = float(self._start.elapsed_time(self._stop))
            self.mean_ms = self.elapsed_ms / self.iters


def time_gpu(fn: Callable[[], Any], warmup: int = 20, iters: int = 100,
             stream: Any = None) -> float:
    """Calls fn() `warmup` times untimed, then `iters` times between two events; returns the
    mean device milliseconds per call. Synchronizes the device before timing, so work queued
    earlier does not land in the measurement."""
    if warmup < 0 or iters < 1:
        raise ValueError(f"need warmup >= 0 and iters >= 1, got {warmup} and {iters}")
    torch = _torch()
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    with GpuTimer(iters=iters, stream=stream) as timer:
        for _ in range(iters):
            fn()
    return timer.mean_ms


def device_fields(torch: Any) -> dict:
    """device= and arch= for the current device: gcnArchName on ROCm/DTK, sm_XY on NVIDIA."""
    index = torch.cuda.current_device()
    props = torch.cuda.get_device_properties(index)
    # Recent CUDA builds of PyTorch also have gcnArchName, holding the device's name, so
    # only a HIP build's value is an architecture.
    arch = ""
    if getattr(torch.version, "hip", None):
        arch = getattr(props, "gcnArchName", "")
    if not arch:
        arch = f"sm_{props.major}{props.minor}"
    return {"device": props.name, "arch": arch}


def _positive(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"'{text}' must be at least 1")
    return value


def _non_negative(text: str) -> int:
    try:
        value = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not an integer") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"'{text}' must be at least 0")
    return value


def demo(size: int, dtype_name: str, warmup: int, iters: int) -> int:
    """Times a size x size matrix product and prints one result line."""
    torch = _torch()
    dtype = getattr(torch, dtype_name)
    gen = torch.Generator(device="cuda").manual_seed(0)
    a = torch.randn(size, size, device="cuda", dtype=dtype, generator=gen)
    b = torch.randn(size, size, device="cuda", dtype=dtype, generator=gen)
    out = torch.empty(size, size, device="cuda", dtype=dtype)

    mean_ms = time_gpu(lambda: torch.matmul(a, b, out=out), warmup=warmup, iters=iters)
    tflops = 2.0 * size ** 3 / (mean_ms * 1e-3) / 1e12 if mean_ms > 0 else math.nan
    print_metrics(
        **device_fields(torch),
        torch=torch.__version__,
        size=size,
        dtype=dtype_name,
        warmup=warmup,
        iterations=iters,
        launches=warmup + iters,
        mean_matmul_ms=mean_ms,
        tflops=tflops,
    )
    return EXIT_OK


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time GPU work with PyTorch device events; print hprun metric lines.",
        epilog="exit status: 0 ok, 2 usage, 3 PyTorch missing or no GPU",
    )
    parser.add_argument("--demo", action="store_true",
                        help="time a matrix product (torch.matmul) and print its result line")
    parser.add_argument("--size", type=_positive, default=4096, help="matrix side (default 4096)")
    parser.add_argument("--dtype", choices=("float32", "float16", "bfloat16"), default="float32",
                        help="element type (default float32)")
    parser.add_argument("--warmup", type=_non_negative, default=20,
                        help="untimed calls first (default 20)")
    parser.add_argument("--iters", type=_positive, default=100,
                        help="timed calls (default 100)")
    args = parser.parse_args(argv)
    if not args.demo:
        parser.print_usage(sys.stderr)
        print("torch_timer.py: nothing to do; pass --demo, or import it as a module",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        return demo(args.size, args.dtype, args.warmup, args.iters)
    except NoGpuError as exc:
        print(f"torch_timer.py: {exc}", file=sys.stderr)
        return EXIT_NO_GPU


if __name__ == "__main__":
    sys.exit(main())
