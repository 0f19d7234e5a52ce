#!/bin/sh
# Installs the Debian packages hprun needs when they are missing. Every CI run and every new machine
# starts bare, so `make run` and `make check` call this first. It asks apt only when something is
# missing, so on a prepared machine it costs one dpkg query.
#
#   sh scripts/deps.sh run     what `make run` needs: build hprun and run configs/quickstart.yaml
#   sh scripts/deps.sh check   what `make check` needs: the above and the whole test stack (default)
#
#   HPRUN_NO_DEPS=1   skip this step (you manage packages yourself)
#   HPRUN_DEPS_LIST=1 print the packages of the step, one a line, and install nothing
#   For `check` only:
#   HPRUN_NO_HIPCC=1  do not install hipcc (the HIP compile check is then skipped)
#   HPRUN_NO_FUZZ=1   do not install clang and its libFuzzer runtime (make fuzz, make fuzz-check)
#   HPRUN_NO_BROWSER=1  do not install chromium (the report.html browser test is then skipped)
#   HPRUN_NO_CLUSTER=1 do not install Slurm, munge and Open MPI (the cluster tests then fail)
set -eu

[ "${HPRUN_NO_DEPS:-0}" = 1 ] && exit 0
what=${1:-check}
case "$what" in
  run | check) ;;
  *) echo "deps: usage: sh scripts/deps.sh [run|check]" >&2; exit 2 ;;
esac

# The quickstart builds hprun and its demo kernel and runs them under valgrind and strace, its
# "profilers" on a machine with no GPU. gcc only recommends libc6-dev, and recommends are not
# installed below, so it is named. zlib reads gzip-compressed PyTorch (Kineto) traces.
pkgs="gcc libc6-dev make pkg-config libyaml-dev libuv1-dev zlib1g-dev valgrind strace"
if [ "$what" = check ]; then
  # The unit tests (cmocka), the style check (clang-format), the scripts and checkers (python3);
  # mandoc and man-db lint and render the man pages (tests/e2e/test_install.sh).
  pkgs="$pkgs libcmocka-dev clang-format python3 mandoc man-db"
  [ "${HPRUN_NO_HIPCC:-0}" = 1 ] || pkgs="$pkgs hipcc"
  # make fuzz builds with clang. libFuzzer (libclang_rt.fuzzer-x86_64.a) is in libclang-rt-<N>-dev,
  # which clang only recommends.
  [ "${HPRUN_NO_FUZZ:-0}" = 1 ] || pkgs="$pkgs clang libclang-rt-dev"
  # tests/e2e/test_ci_journey.sh reads the CI example files with PyYAML and moves main's session as
  # a zip artifact, as GitLab does.
  pkgs="$pkgs python3-yaml zip unzip git"
  # tests/e2e/test_html.sh checks report.html as XML (xmllint) and renders it in headless Chromium.
  pkgs="$pkgs libxml2-utils"
  # tests/e2e/test_terminal.sh runs the quickstart in a tmux pane and reads the screen as a person sees it.
  pkgs="$pkgs tmux"
  [ "${HPRUN_NO_BROWSER:-0}" = 1 ] || pkgs="$pkgs chromium"
  # The cluster tests run a real one-node Slurm (tests/cluster/slurm.sh) and Open MPI's mpirun.
  [ "${HPRUN_NO_CLUSTER:-0}" = 1 ] || pkgs="$pkgs slurm-wlm munge openmpi-bin"
fi

if [ "${HPRUN_DEPS_LIST:-0}" = 1 ]; then
  printf '%s\n' $pkgs
  exit 0
fi

missing=""
for p in $pkgs; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing="$missing $p"
  fi
done
[ -z "$missing" ] && exit 0

echo "deps: installing missing Debian packages:$missing" >&2
if [ "$(id -u)" = 0 ]; then
  sudo=""
elif command -v sudo >/dev/null 2>&1; then
  sudo="sudo"
else
  echo "deps: missing packages:$missing; run as root or install them yourself (apt-get install$missing)" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "deps: done" >&2
