#!/usr/bin/env python3
"""A GPU-bound PyTorch training step for the `repeat: auto` validation (docs/validation/h200-auto.md):
one torch.nn.TransformerEncoderLayer(1024, 16, 4096) in bf16, forward and backward on 32 x 1024
tokens, about 3 TFLOP a step, so the GPU and not the Python launch loop sets the step time (step.py,
the launch-bound step of the first run, had a 7-11% CV between processes). `gpu_step.py STEPS
WARMUP` prints `step_ms=... iterations=STEPS`, the mean step time from CUDA events. With
TORCH_PROFILE=1 the timed steps run under torch.profiler with CUDA activity only: the light mode."""
import contextlib
import os
import sys

import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 2
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(1024, 16, 4096, batch_first=True).cuda().to(torch.bfloat16)
x = torch.randn(32, 1024, 1024, device="cuda", dtype=torch.bfloat16, requires_grad=True)


def step():
    layer(x).float().pow(2).mean().backward()


for _ in range(warmup):
    step()
torch.cuda.synchronize()
prof = contextlib.nullcontext()
if os.environ.get("TORCH_PROFILE") == "1":
    prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA])
a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
with prof:
    a.record()
    for _ in range(steps):
        step()
    b.record()
    torch.cuda.synchronize()
print(f"step_ms={a.elapsed_time(b) / steps:.6f} iterations={steps}", flush=True)
