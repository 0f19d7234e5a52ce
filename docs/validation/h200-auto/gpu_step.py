#!/usr/bin/env python3
"""The GPU-bound PyTorch step of the `repeat: auto` validation (docs/validation/h200-auto.md): one
torch.nn.TransformerEncoderLayer(1024, 16, 4096) in bf16, forward and backward on 32 x 1024 tokens,
about 3 TFLOP a step, so the GPU and not Python's launch loop sets the step time (step.py's
launch-bound step had a 7-11% CV between processes). `gpu_step.py STEPS WARMUP` is
`step.py STEPS WARMUP gpu`, kept as the command the plans and their recorded sessions name."""
import os
import runpy
import sys

sys.argv = [sys.argv[0]] + sys.argv[1:3] + ["gpu"]
runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "step.py"), run_name="__main__")
