"""The stand-in's torch.profiler (see __init__.py)."""
import gzip
import json
import os
import time


class ProfilerActivity:
    CPU = "CPU"
    CUDA = "CUDA"


def schedule(wait, warmup, active, repeat=0, skip_first=0):
    return {"wait": wait, "warmup": warmup, "active": active, "repeat": repeat}


class profile:
    def __init__(self, activities=None, schedule=None, on_trace_ready=None, record_shapes=False,
                 profile_memory=False, with_stack=False):
        self.opts = {"activities": list(activities or []), "schedule": schedule,
                     "record_shapes": record_shapes, "profile_memory": profile_memory,
                     "with_stack": with_stack}
        self.on_trace_ready = on_trace_ready
        self.steps = 0

    def __enter__(self):
        self.t0 = time.time() * 1e6
        return self

    def __exit__(self, *a):
        self.t1 = time.time() * 1e6
        return False

    def step(self):
        self.steps += 1
        s = self.opts["schedule"]
        if s and self.on_trace_ready and self.steps == s["wait"] + s["warmup"] + s["active"]:
            self.t1 = time.time() * 1e6
            self.on_trace_ready(self)

    def export_chrome_trace(self, path):
        # HPRUN_FAKE_TORCH_TRACE names a real trace (.json.gz) to write instead, so that a session
        # can be made of real traces without PyTorch.
        real = os.environ.get("HPRUN_FAKE_TORCH_TRACE")
        if real and "CUDA" in self.opts["activities"]:
            with gzip.open(real, "rb") as f, open(path, "wb") as o:
                o.write(f.read())
            return
        ev = [{"ph": "X", "cat": "cpu_op", "name": "aten::fake", "pid": 1, "tid": 1,
               "ts": 1000.0, "dur": 5.5}]
        # Like Kineto, one ProfilerStep#N annotation per recorded step (a schedule's active ones),
        # each 10 us with one launch and one kernel in it; a run that never stepped has one launch
        # and kernel and no annotation.
        s = self.opts["schedule"]
        steps = s["active"] if s and self.steps else self.steps
        for i in range(max(steps, 1)):
            t = 1000.0 + 10 * i
            if steps:
                ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % i,
                           "pid": 1, "tid": 1, "ts": t, "dur": 10.0})
            if "CUDA" in self.opts["activities"]:
                ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
                           "pid": 1, "tid": 1, "ts": t + 1, "dur": 1.0})
                ev.append({"ph": "X", "cat": "kernel", "name": "fake_kernel", "pid": 0,
                           "tid": 7, "ts": t + 2, "dur": 2.25})
        with open(path, "w") as f:
            json.dump({"schemaVersion": 1, "hprunFake": dict(self.opts, steps=self.steps),
                       "traceEvents": ev}, f)
