# hip/hip.mk: builds of the HIP samples in hip/. Included by the top Makefile; paths are
# relative to the repository root. docs/hip.md explains the choices.
#
#   make hip         every hip/*.hip with hipcc for HIP_ARCH (default gfx936, a DCU BW) into
#                    $(BUILD)/hip/<name>. Needs a hipcc that knows HIP_ARCH: DTK's does for
#                    gfx936, Debian's ROCm 5.2 hipcc does not (use HIP_ARCH=gfx90a etc. there).
#   make hip-check   no GPU needed: the metric-line test, every hip/*.hip and hip/tests/*.hip
#                    compiled and linked by hipcc for HIP_CHECK_ARCHS and by nvcc (when
#                    present) through the CUDA mapping, plus the samples' exit-status convention. Prints
#                    "skipped: hipcc not installed" and succeeds when hipcc is missing.
#   make hip-nvcc    every hip/*.hip with nvcc for NVCC_ARCH (default sm_90, H100/H200) into
#                    $(BUILD)/nvcc/<name>, through hip/hip_cuda_compat.h. scripts/build-nvcc.sh
#                    does the same without make.
#
# A change of compiler, flags or arch rebuilds the binaries: the command line is kept in a
# stamp file ($(BUILD)/hip/.cmd, $(BUILD)/nvcc/.cmd) that is rewritten only when it changes.

BUILD       ?= build
HIPCC       ?= hipcc
HIP_ARCH    ?= gfx936
HIPCCFLAGS  ?= -O3 -std=c++17
HIP_CHECK_ARCHS ?= gfx906 gfx90a
# nvcc is often installed without being on PATH; CUDA's default prefix is the fallback.
NVCC        ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc),nvcc)
NVCC_ARCH   ?= sm_90
NVCCFLAGS   ?= -O3 -std=c++17

HIP_SRC     := $(sort $(wildcard hip/*.hip))
HIP_HDR     := $(wildcard hip/*.h)
HIP_BIN     := $(HIP_SRC:hip/%.hip=$(BUILD)/hip/%)
HIP_NVCC_BIN := $(HIP_SRC:hip/%.hip=$(BUILD)/nvcc/%)

HIP_CMD      = $(HIPCC) $(HIPCCFLAGS) --offload-arch=$(HIP_ARCH)
HIP_NVCC_CMD = $(NVCC) $(NVCCFLAGS) -arch=$(NVCC_ARCH) -x cu -Ihip

.PHONY: hip hip-check hip-nvcc hip-force

hip: $(HIP_BIN)

hip-nvcc: $(HIP_NVCC_BIN)

hip-check:
	@BUILD='$(BUILD)' CC='$(CC)' HIPCC='$(HIPCC)' HIP_ARCH='$(HIP_ARCH)' \
	  HIP_CHECK_ARCHS='$(HIP_CHECK_ARCHS)' NVCC='$(NVCC)' NVCC_ARCH='$(NVCC_ARCH)' \
	  sh hip/check.sh

# The stamp recipes always run (hip-force is phony) but touch the file only when the command
# line differs, so make rebuilds a binary exactly when its sources or its command changed.
$(BUILD)/hip/.cmd: hip-force
	@mkdir -p $(dir $@)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(HIP_CMD)' ]; then echo '$(HIP_CMD)' >$@; fi

$(BUILD)/nvcc/.cmd: hip-force
	@mkdir -p $(dir $@)
	@if [ "$$(cat $@ 2>/dev/null)" != '$(HIP_NVCC_CMD)' ]; then echo '$(HIP_NVCC_CMD)' >$@; fi

$(HIP_BIN): $(BUILD)/hip/%: hip/%.hip $(HIP_HDR) $(BUILD)/hip/.cmd
	@command -v $(firstword $(HIPCC)) >/dev/null 2>&1 || { \
	  echo "make hip: $(firstword $(HIPCC)) not found. On a DCU: source /opt/dtk/env.sh;" \
	    "on Debian: apt-get install hipcc; or make hip HIPCC=/path/to/hipcc" >&2; exit 1; }
	$(HIP_CMD) $< -o $@

$(HIP_NVCC_BIN): $(BUILD)/nvcc/%: hip/%.hip $(HIP_HDR) $(BUILD)/nvcc/.cmd
	@command -v $(firstword $(NVCC)) >/dev/null 2>&1 || { \
	  echo "make hip-nvcc: $(firstword $(NVCC)) not found. Put CUDA's bin on PATH" \
	    "(export PATH=/usr/local/cuda/bin:\$$PATH) or make hip-nvcc NVCC=/path/to/nvcc" >&2; \
	  exit 1; }
	$(HIP_NVCC_CMD) $< -o $@
