#!/bin/sh
# scripts/build-nvcc.sh: builds the HIP samples (hip/*.hip) with nvcc on an NVIDIA machine that
# has CUDA but no HIP and perhaps no make: the same commands as `make hip-nvcc`.
#
#   scripts/build-nvcc.sh [SAMPLE...]      default: every hip/*.hip; a SAMPLE is a name
#                                          (vector_add) or a path (hip/vector_add.hip)
#   NVCC=/path/to/nvcc      default: nvcc on PATH, else $CUDA_HOME/bin/nvcc, else
#                           /usr/local/cuda/bin/nvcc
#   NVCC_ARCH=sm_90         the GPU generation (sm_90: H100/H200; sm_80: A100; sm_89: L40)
#   NVCCFLAGS="-O3 -std=c++17"
#   BUILD=build             binaries go to $BUILD/nvcc/<name>
#
# The sources include hip/hip_compat.h, which under nvcc maps the HIP calls onto CUDA through
# hip/hip_cuda_compat.h; nvcc needs `-x cu` because it does not know the .hip suffix.
# Exit status: 0 all built; 1 a build failed; 2 usage or nvcc not found.
set -eu

case "${1:-}" in
  -h|--help)
    # The header comment above is the help text.
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"
    exit 0
    ;;
esac

cd "$(dirname "$0")/.."

BUILD=${BUILD:-build}
NVCC_ARCH=${NVCC_ARCH:-sm_90}
NVCCFLAGS=${NVCCFLAGS:--O3 -std=c++17}

if [ -z "${NVCC:-}" ]; then
  if command -v nvcc >/dev/null 2>&1; then
    NVCC=nvcc
  elif [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; then
    NVCC=$CUDA_HOME/bin/nvcc
  elif [ -x /usr/local/cuda/bin/nvcc ]; then
    NVCC=/usr/local/cuda/bin/nvcc
  else
    echo "build-nvcc: nvcc not found on PATH, in \$CUDA_HOME/bin or /usr/local/cuda/bin;" \
      "set NVCC=/path/to/nvcc" >&2
    exit 2
  fi
fi

if [ "$#" -eq 0 ]; then
  set -- hip/*.hip
fi

mkdir -p "$BUILD/nvcc"
status=0
for s in "$@"; do
  case "$s" in
    */*|*.hip) src=$s ;;
    *) src=hip/$s.hip ;;
  esac
  if [ ! -f "$src" ]; then
    echo "build-nvcc: no such sample: $s (looked for $src)" >&2
    exit 2
  fi
  name=$(basename "$src" .hip)
  echo "$NVCC $NVCCFLAGS -arch=$NVCC_ARCH -x cu -Ihip $src -o $BUILD/nvcc/$name"
  # shellcheck disable=SC2086
  if ! "$NVCC" $NVCCFLAGS -arch="$NVCC_ARCH" -x cu -Ihip "$src" -o "$BUILD/nvcc/$name"; then
    echo "build-nvcc: $src failed to build" >&2
    status=1
    continue
  fi
  echo "build-nvcc: built $BUILD/nvcc/$name"
done
exit "$status"
