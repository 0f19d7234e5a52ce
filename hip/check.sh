#!/bin/sh
# hip/check.sh: the body of `make hip-check` (hip/hip.mk passes the variables). Needs no GPU.
#
#   1. Builds and runs hip/tests/test_metric_line.c with $CC: the result-line format that hprun
#      plans match (hip/hprun_metric.h). Runs everywhere.
#   2. With hipcc: compiles and links every hip/*.hip and hip/tests/*.hip (the validation
#      programs: vector_add_vec4, roofline_mix) for each arch in $HIP_CHECK_ARCHS
#      (one hipcc call per source, all arches in one fat binary), warnings shown, then runs each
#      binary with a bad argument (must exit 2 with a usage message) and, on a machine with no
#      AMD GPU device node (/dev/kfd), with no arguments (must exit 3 and say so): the exit-status
#      convention every sample in hip/ follows (docs/hip.md). Without hipcc: "skipped".
#      Also says, in one line, whether this hipcc knows $HIP_ARCH (Debian's ROCm 5.2 does not
#      know gfx936; DTK's does). That line is information, never a failure.
#   3. With nvcc: the same build through hip/hip_cuda_compat.h for $NVCC_ARCH, and the same runs
#      (no-device run only without /dev/nvidiactl). Without nvcc: "skipped".
#
# Exits 0 when everything that could run passed, 1 otherwise, after running every step: one
# broken sample does not hide the state of the others.
set -u

BUILD=${BUILD:-build}
CC=${CC:-cc}
HIPCC=${HIPCC:-hipcc}
HIP_ARCH=${HIP_ARCH:-gfx936}
HIP_CHECK_ARCHS=${HIP_CHECK_ARCHS:-gfx906 gfx90a}
HIP_CHECK_FLAGS=${HIP_CHECK_FLAGS:--O2 -std=c++17 -Wall -Wextra}
NVCC=${NVCC:-nvcc}
NVCC_ARCH=${NVCC_ARCH:-sm_90}
NVCC_CHECK_FLAGS=${NVCC_CHECK_FLAGS:--O2 -std=c++17 -Xcompiler -Wall,-Wextra}

out="$BUILD/hip-check"
failed=0
mkdir -p "$out" || exit 1

say() { printf 'hip-check: %s\n' "$*"; }
fail() { printf 'hip-check: FAIL: %s\n' "$*" >&2; failed=1; }

# run_expect BIN WANT_STATUS WANT_STDERR_TEXT ARGS...: runs BIN with ARGS, stdout and stderr kept
# apart, and checks the exit status and that stderr mentions the expected text.
run_expect() {
  bin=$1 want=$2 text=$3
  shift 3
  "$bin" "$@" >"$out/run.stdout" 2>"$out/run.stderr"
  got=$?
  if [ "$got" -ne "$want" ]; then
    fail "$bin $* exited $got, expected $want; stderr:"
    sed 's/^/    /' "$out/run.stderr" >&2
    return
  fi
  if ! grep -q -- "$text" "$out/run.stderr"; then
    fail "$bin $* exited $want but stderr lacks '$text':"
    sed 's/^/    /' "$out/run.stderr" >&2
    return
  fi
  say "ok: $bin ${*:-(no arguments)} -> exit $want"
}

# smoke BIN HAS_DEVICE_NODE: the exit-status convention, as far as this machine can show it.
smoke() {
  run_expect "$1" 2 "usage:" 0
  run_expect "$1" 2 "usage:" 12x
  if [ "$2" = no ]; then
    run_expect "$1" 3 "no GPU device"
  else
    say "note: a GPU device node exists here; the no-device run of $1 is not checked"
  fi
}

# 1. The metric-line contract.
if $CC -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes \
     -Wmissing-prototypes -O2 -g hip/tests/test_metric_line.c -o "$out/test_metric_line" -lm; then
  if "$out/test_metric_line"; then
    say "ok: metric-line format"
  else
    fail "metric-line format (hip/tests/test_metric_line.c)"
  fi
else
  fail "hip/tests/test_metric_line.c does not compile"
fi

sources=$(ls hip/*.hip 2>/dev/null)
[ -n "$sources" ] || fail "no hip/*.hip sources found (run from the repository root)"
# The validation programs in hip/tests follow the same exit-status convention; they include the
# headers of hip/, hence -Ihip on every compile below.
sources="$sources $(ls hip/tests/*.hip 2>/dev/null)"

# 2. hipcc.
if command -v "$HIPCC" >/dev/null 2>&1; then
  archflags=""
  for a in $HIP_CHECK_ARCHS; do archflags="$archflags --offload-arch=$a"; done
  if [ -e /dev/kfd ]; then kfd=yes; else kfd=no; fi
  for src in $sources; do
    name=$(basename "$src" .hip)
    say "$HIPCC $HIP_CHECK_FLAGS$archflags -Ihip $src -o $out/$name"
    # shellcheck disable=SC2086
    if $HIPCC $HIP_CHECK_FLAGS $archflags -Ihip "$src" -o "$out/$name"; then
      smoke "$out/$name" "$kfd"
    else
      fail "$src does not compile with $HIPCC for $HIP_CHECK_ARCHS"
    fi
  done
  # Whether `make hip` can work here with its default arch. Checked on a tiny source so that a
  # compiler that does know the arch answers quickly.
  printf '__global__ void hprun_probe(float *p) { p[0] = 1.0f; }\n' >"$out/probe.hip"
  if $HIPCC -std=c++17 --offload-arch="$HIP_ARCH" -c "$out/probe.hip" -o "$out/probe.o" \
       >"$out/probe.log" 2>&1; then
    say "note: this $HIPCC knows HIP_ARCH=$HIP_ARCH (make hip will work here)"
  else
    why=$(grep -m1 'error' "$out/probe.log" | cut -d';' -f1)
    say "note: this $HIPCC cannot target HIP_ARCH=$HIP_ARCH (${why:-see $out/probe.log});" \
      "make hip needs DTK's hipcc for gfx936, or HIP_ARCH=<a gfx this hipcc knows>"
  fi
else
  say "skipped: hipcc not installed (scripts/deps.sh installs it; HIPCC=$HIPCC)"
fi

# 3. nvcc, through the CUDA mapping.
if command -v "$NVCC" >/dev/null 2>&1; then
  if [ -e /dev/nvidiactl ]; then nv=yes; else nv=no; fi
  for src in $sources; do
    name=$(basename "$src" .hip)
    say "$NVCC $NVCC_CHECK_FLAGS -arch=$NVCC_ARCH -x cu -Ihip $src -o $out/nvcc-$name"
    # shellcheck disable=SC2086
    if $NVCC $NVCC_CHECK_FLAGS -arch="$NVCC_ARCH" -x cu -Ihip "$src" -o "$out/nvcc-$name"; then
      smoke "$out/nvcc-$name" "$nv"
    else
      fail "$src does not compile with $NVCC through hip/hip_cuda_compat.h"
    fi
  done
else
  say "skipped: nvcc not installed; the CUDA mapping was not compiled (NVCC=$NVCC)"
fi

if [ "$failed" -ne 0 ]; then
  say "FAILED"
  exit 1
fi
say "passed"
