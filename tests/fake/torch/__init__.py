"""A stand-in for PyTorch, for the end-to-end test of hprun's torch launcher only
(tests/e2e/test_torch.sh): torch.profiler.profile, ProfilerActivity, schedule, and
torch.optim.optimizer's global step hook, which write a small Kineto-shaped trace that records the
options the launcher gave. It is not PyTorch and measures nothing."""
