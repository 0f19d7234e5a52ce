#!/bin/sh
# Installs the Debian packages hprun needs when they are missing. Every CI run and every new machine
# starts bare, so `make run` and `make check` call this first. It asks apt only when something is
# missing, so on a prepared machine it costs one dpkg query.
#
#   HPRUN_NO_DEPS=1   skip this step (you manage packages yourself)
#   HPRUN_NO_HIPCC=1  do not install hipcc (the HIP compile check is then skipped)
#   HPRUN_NO_FUZZ=1   do not install clang and its libFuzzer runtime (make fuzz, make fuzz-check)
#   HPRUN_NO_BROWSER=1  do not install chromium (the report.html browser test is then skipped)
#   HPRUN_NO_CLUSTER=1 do not install Slurm, munge and Open MPI (the cluster tests then fail)
set -eu

[ "${HPRUN_NO_DEPS:-0}" = 1 ] && exit 0

# Build and test needs (clang-format checks the style in make check); valgrind and strace are the quickstart's "profilers" on a machine with no GPU.
# mandoc and man-db lint and render the man pages (tests/e2e/test_install.sh).
pkgs="gcc make pkg-config libyaml-dev libuv1-dev libcmocka-dev zlib1g-dev clang-format valgrind strace python3 mandoc man-db"
[ "${HPRUN_NO_HIPCC:-0}" = 1 ] || pkgs="$pkgs hipcc"
# make fuzz builds with clang. libFuzzer (libclang_rt.fuzzer-x86_64.a) is in libclang-rt-<N>-dev,
# which clang only recommends, and recommends are not installed below.
[ "${HPRUN_NO_FUZZ:-0}" = 1 ] || pkgs="$pkgs clang libclang-rt-dev"
# tests/e2e/test_ci_journey.sh reads the CI example files with PyYAML and moves main's session as
# a zip artifact, as GitLab does.
pkgs="$pkgs python3-yaml zip unzip git"
# tests/e2e/test_html.sh checks report.html as XML (xmllint) and renders it in headless Chromium.
pkgs="$pkgs libxml2-utils"
[ "${HPRUN_NO_BROWSER:-0}" = 1 ] || pkgs="$pkgs chromium"
# The cluster tests run a real one-node Slurm (tests/cluster/slurm.sh) and Open MPI's mpirun.
[ "${HPRUN_NO_CLUSTER:-0}" = 1 ] || pkgs="$pkgs slurm-wlm munge openmpi-bin"

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
