#!/bin/sh
# The quickstart's app (configs/quickstart.yaml): the small CPU kernel that `make` builds, run on
# N elements. It is a script started by a path relative to the plan's folder, as a user's own
# wrapper around a benchmark would be: runs start in app.cwd, which defaults to that folder, so
# both `demo/kernel.sh` in the plan and `../build/...` here resolve as they would in a shell.
# `exec` makes the kernel this process, so the profilers time the kernel, not the shell.
exec ../build/apps/cpukernel --n "${1:?usage: kernel.sh ELEMENTS}"
