"""A PyTorch workload with kernels on both sides of a roofline, for ncu captures
(scripts/validate-h200-roofline.sh): FP32 matrix multiplies (TF32 off, so cuBLAS runs FFMA
kernels whose FLOPs ncu counts) and elementwise ops over a large tensor."""
import torch

torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False
n = 4096
a = torch.randn(n, n, device="cuda")
b = torch.randn(n, n, device="cuda")
x = torch.randn(1 << 26, device="cuda")
for _ in range(3):
    c = a @ b
    y = x * 2.0 + 1.0
    z = torch.relu(y)
torch.cuda.synchronize()
print("c_sum=%g z_sum=%g" % (float(c.sum()), float(z.sum())))
