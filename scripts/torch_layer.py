#!/usr/bin/env python3
"""One torch.nn.TransformerEncoderLayer(512, 8, 2048) in bf16, forward and backward on a batch
of 8 x 256, timed with CUDA events: `torch_layer.py STEPS WARMUP` prints
`step_ms=... iterations=STEPS` (the capture in tests/fixtures/real/ncu-h200-pytorch/). The timed
loop is inside the NVTX range `timed`, so that a plan's `app.region: timed` keeps ncu to it."""
import sys

import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 3
torch.manual_seed(0)
layer = torch.nn.TransformerEncoderLayer(512, 8, 2048, batch_first=True).cuda().to(torch.bfloat16)
x = torch.randn(8, 256, 512, device="cuda", dtype=torch.bfloat16, requires_grad=True)


def step():
    layer(x).float().pow(2).mean().backward()


for _ in range(warmup):
    step()
torch.cuda.synchronize()
a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
torch.cuda.nvtx.range_push("timed")
a.record()
for _ in range(steps):
    step()
b.record()
torch.cuda.nvtx.range_pop()
torch.cuda.synchronize()
print("step_ms=%.7g iterations=%d" % (a.elapsed_time(b) / steps, steps), flush=True)
