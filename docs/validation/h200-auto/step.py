#!/usr/bin/env python3
"""A PyTorch training step for the `repeat: auto` validation (docs/validation/h200-auto.md): one
torch.nn.TransformerEncoderLayer(512, 8, 2048) in bf16, forward and backward on 8 x 256, as
scripts/torch_layer.py. `step.py STEPS WARMUP` prints `step_ms=... iterations=STEPS`, the mean
step time from CUDA events; `step.py STEPS WARMUP gpu` is gpu_step.py's GPU-bound step instead,
TransformerEncoderLayer(1024, 16, 4096) on 32 x 1024. With TORCH_PROFILE=1 the timed steps run
under torch.profiler with CUDA activity only (no stacks, no shapes): the light mode."""
import contextlib
import os
import sys

import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 5
torch.manual_seed(0)
d, h, ff, b, t = (1024, 16, 4096, 32, 1024) if sys.argv[3:4] == ["gpu"] else (512, 8, 2048, 8, 256)
layer = torch.nn.TransformerEncoderLayer(d, h, ff, batch_first=True).cuda().to(torch.bfloat16)
x = torch.randn(b, t, d, device="cuda", dtype=torch.bfloat16, requires_grad=True)


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
