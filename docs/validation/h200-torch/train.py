#!/usr/bin/env python3
"""The PyTorch program of the torch-tool validation (docs/validation/h200-torch.md): a small GPT
(4 decoder layers, d=512, 8 heads, fp32) trained for STEPS steps
with AdamW on random tokens, batch 8 x 128: a real training loop that calls optimizer.step() and
knows nothing of hprun. `train.py STEPS WARMUP` prints `step_ms=...`, the mean of the timed steps
from CUDA events. With HAND_PROFILE=cuda|stack the timed steps run under torch.profiler written
out here by hand (the hand runs of the validation), and the trace goes to $HAND_TRACE."""
import contextlib
import os
import sys

import torch

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 30
warmup = int(sys.argv[2]) if len(sys.argv) > 2 else 5
torch.manual_seed(0)
V, D, H, L, T, B = 8192, 512, 8, 4, 128, 8
emb = torch.nn.Embedding(V, D)
layers = torch.nn.TransformerEncoder(
    torch.nn.TransformerEncoderLayer(D, H, 4 * D, batch_first=True, norm_first=True), L)
head = torch.nn.Linear(D, V)
model = torch.nn.Sequential(emb, layers, head).cuda()
opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
mask = torch.nn.Transformer.generate_square_subsequent_mask(T, device="cuda")
tok = torch.randint(0, V, (B, T + 1), device="cuda")


def step():
    x = emb(tok[:, :-1])
    y = head(layers(x, mask=mask, is_causal=True))
    loss = torch.nn.functional.cross_entropy(y.reshape(-1, V), tok[:, 1:].reshape(-1))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()


for _ in range(warmup):
    step()
torch.cuda.synchronize()
mode = os.environ.get("HAND_PROFILE")
prof = contextlib.nullcontext()
if mode:
    acts = [torch.profiler.ProfilerActivity.CPU, torch.profiler.ProfilerActivity.CUDA]
    prof = torch.profiler.profile(activities=acts, with_stack=(mode == "stack"))
a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
with prof:
    a.record()
    for _ in range(steps):
        step()
    b.record()
    torch.cuda.synchronize()
if mode:
    prof.export_chrome_trace(os.environ["HAND_TRACE"])
print("step_ms=%.6f iterations=%d" % (a.elapsed_time(b) / steps, steps))
