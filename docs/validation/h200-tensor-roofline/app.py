# A bf16 Transformer layer step (forward and backward), three plain torch.matmul GEMMs of known
# M, N, K and one F.scaled_dot_product_attention of known shape, each launched once after a warmup
# (ncu is given -k/--launch-skip in run.sh). The shapes are printed for hand.py.
import torch, torch.nn.functional as F
torch.backends.cuda.matmul.allow_tf32 = False
dev, dt = "cuda", torch.bfloat16
layer = torch.nn.TransformerEncoderLayer(512, 8, 2048, batch_first=True).to(dev, dt)
x = torch.randn(8, 256, 512, device=dev, dtype=dt, requires_grad=True)
shapes = [(4096, 4096, 4096), (8192, 8192, 1024), (2048, 8192, 8192)]
mats = [(torch.randn(m, k, device=dev, dtype=dt), torch.randn(k, n, device=dev, dtype=dt))
        for m, n, k in shapes]
q, kk, v = (torch.randn(4, 16, 2048, 128, device=dev, dtype=dt) for _ in range(3))
for step in range(2):  # the first round warms up; ncu profiles the second (run.sh)
    layer(x).sum().backward()
    for a, b in mats:
        torch.matmul(a, b)
    F.scaled_dot_product_attention(q, kk, v)
    torch.cuda.synchronize()
for m, n, k in shapes:
    print(f"gemm M={m} N={n} K={k} flop={2 * m * n * k}")
print(f"sdpa B=4 H=16 S=2048 D=128 flop={4 * 4 * 16 * 2048 * 2048 * 128}")
