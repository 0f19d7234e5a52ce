"""The stand-in's torch.optim: an optimizer whose step() runs the global post hooks."""
from . import optimizer  # noqa: F401
