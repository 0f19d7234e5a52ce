#!/usr/bin/env python3
"""hprun's launcher for the `torch` tool: runs a Python program under torch.profiler without
editing it, and writes the Kineto trace into the run's folder (docs/drivers.md, "torch").

    python3 hprun_torch.py --mode MODE --dir DIR [--wait N --warmup N --active N] -- SCRIPT ARGS...
    python3 hprun_torch.py --mode MODE --dir DIR -- -m MODULE ARGS...

The program sees sys.argv as it would without the launcher (SCRIPT or the module's path first),
and the launcher's exit status is the program's: SystemExit's code, 1 after an uncaught
exception. The trace is DIR/torch-trace.json, or DIR/torch-trace.rank<RANK>.json when RANK is set
(torchrun starts one launcher per rank).
"""
import os
import runpy
import sys
import traceback

MODES = ("cpu", "cuda", "shapes", "stack", "memory", "schedule")


def parse(argv):
    opts = {"mode": None, "dir": None, "wait": 1, "warmup": 1, "active": 3}
    i = 0
    while i < len(argv) and argv[i] != "--":
        key = argv[i].lstrip("-")
        if key not in opts or i + 1 >= len(argv):
            sys.exit("hprun_torch: unknown option or missing value: %s" % argv[i])
        opts[key] = argv[i + 1] if key in ("mode", "dir") else int(argv[i + 1])
        i += 2
    if opts["mode"] not in MODES or not opts["dir"] or i + 1 >= len(argv):
        sys.exit("hprun_torch: usage: --mode {%s} --dir DIR -- SCRIPT ARGS..." % ",".join(MODES))
    return opts, argv[i + 1:]


def trace_path(d):
    rank = os.environ.get("RANK")
    return os.path.join(d, "torch-trace.rank%s.json" % rank if rank else "torch-trace.json")


def profiler_for(opts, path):
    import torch.profiler as tp

    mode = opts["mode"]
    acts = [tp.ProfilerActivity.CPU]
    if mode != "cpu":
        # ROCm builds of PyTorch report HIP activity under ProfilerActivity.CUDA too.
        acts.append(tp.ProfilerActivity.CUDA)
    kw = {"activities": acts}
    if mode == "shapes":
        kw["record_shapes"] = True
    elif mode == "stack":
        kw["with_stack"] = True
    elif mode == "memory":
        kw["profile_memory"] = True
    elif mode == "schedule":
        kw["schedule"] = tp.schedule(wait=opts["wait"], warmup=opts["warmup"],
                                     active=opts["active"], repeat=1)
        kw["on_trace_ready"] = lambda p: p.export_chrome_trace(path)
    return tp.profile(**kw)


def step_on_optimizer(prof):
    """A schedule advances on prof.step(); a loop that was not written for it calls
    optimizer.step() once per iteration, so every optimizer's step steps the profiler."""
    from torch.optim.optimizer import register_optimizer_step_post_hook

    return register_optimizer_step_post_hook(lambda *a, **k: prof.step())


def run(target):
    if target[0] == "-m":
        if len(target) < 2:
            sys.exit("hprun_torch: -m needs a module name")
        sys.argv = [target[1]] + target[2:]
        runpy.run_module(target[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = list(target)
        sys.path.insert(0, os.path.dirname(os.path.abspath(target[0])))
        runpy.run_path(target[0], run_name="__main__")


def exit_code(e):
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code
    print(e.code, file=sys.stderr)
    return 1


def main():
    opts, target = parse(sys.argv[1:])
    path = trace_path(opts["dir"])
    prof = profiler_for(opts, path)
    hook = step_on_optimizer(prof) if opts["mode"] == "schedule" else None
    code = 0
    prof.__enter__()
    try:
        run(target)
    except SystemExit as e:
        code = exit_code(e)
    except BaseException:  # the program's own failure: reported as Python would, status 1
        traceback.print_exc()
        code = 1
    finally:
        prof.__exit__(None, None, None)
        if hook is not None:
            hook.remove()
        if opts["mode"] != "schedule":
            prof.export_chrome_trace(path)
    sys.stdout.flush()
    return code


if __name__ == "__main__":
    sys.exit(main())
