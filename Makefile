# hprun: GNU Make build.
#
#   make            build build/hprun, the test programs and the demo apps
#   make run        install the missing Debian packages the quickstart needs, build hprun and
#                   its demo apps, run configs/quickstart.yaml
#   make check      install missing packages, build with -Werror, run every test (unit, end-to-end, HIP compile,
#                   and fuzz-check: the fuzz corpus replayed and each harness fuzzed FUZZ_SECONDS)
#   make asan       run the unit and end-to-end tests under ASan/UBSan
#   make fuzz       fuzz the plan, summary.json and profiler-output readers (clang, libFuzzer)
#   make static     build build/hprun-static (no shared libyaml/libuv), for machines without them
#   make hip        build hip/ samples with hipcc for HIP_ARCH (default gfx936, DCU BW)
#   make install    install hprun, its man pages, bash completion and example plans under PREFIX
#                   (default /usr/local; DESTDIR for staging); `make uninstall` removes them
#
# Sources are picked up by wildcard: a new lib/<module>/*.c joins libhprun.a, a new cmd/*.c joins the CLI,
# a new tests/unit/test_*.c becomes a cmocka program that `make check` runs.

CC       ?= cc
BUILD    ?= build
OPT      ?= -O2 -g
WARN      = -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wno-unused-parameter $(WERROR)
# `make check` (and so CI) sets WERROR=-Werror, so that a new warning fails it; a plain `make`
# leaves it empty, so that a newer compiler's new warning does not stop a user's build.
WERROR   ?=
# -pthread: `hprun summarize -j` reads files on a thread pool (lib/util/sys/pool.c).
STD       = -std=c11 -D_GNU_SOURCE -pthread
DEPFLAGS  = -MMD -MP
# zlib: PyTorch's Kineto traces come as .json.gz (lib/profile/parse/parse_kineto.c).
PKGS      = yaml-0.1 libuv zlib
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS   := $(shell pkg-config --libs $(PKGS) 2>/dev/null || echo -lyaml -luv -lz)
# cmd/ sees only the public headers; the library and its unit tests also see module headers.
BASE_CFLAGS  = $(STD) $(WARN) $(OPT) $(DEPFLAGS) -Ilib/include $(PKG_CFLAGS) $(SAN) $(CFLAGS)
FINAL_CFLAGS = $(BASE_CFLAGS) -Ilib
# Every object depends on this file, which holds the flags it was built with and is rewritten only
# when they change: objects built without -Werror (or with other OPT or SAN) are rebuilt, never
# reused, when `make check` asks for them with -Werror.
FLAGS_STAMP  = $(BUILD)/.cflags
LIBS      = $(PKG_LIBS) -lm -lpthread $(LDLIBS)

LIB_SRC   := $(sort $(wildcard lib/*/*.c lib/*/*/*.c))
CMD_SRC   := $(sort $(wildcard cmd/*.c))
UNIT_SRC  := $(sort $(wildcard tests/unit/test_*.c))
FAKE_SRC  := $(sort $(wildcard tests/fake/*.c))
APP_SRC   := $(sort $(wildcard tests/apps/*.c))

LIB_OBJ   := $(LIB_SRC:%.c=$(BUILD)/%.o)
CMD_OBJ   := $(CMD_SRC:%.c=$(BUILD)/%.o)
UNIT_BIN  := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
FAKE_BIN  := $(FAKE_SRC:tests/fake/%.c=$(BUILD)/fake/%)
APP_BIN   := $(APP_SRC:tests/apps/%.c=$(BUILD)/apps/%)
HPRUN     := $(BUILD)/hprun
LIBHPRUN  := $(BUILD)/libhprun.a

# Test hooks (#ifdef HP_TEST_HOOKS: the HPRUN_CHUNK_BYTES range size, hp__cpu_force) exist only
# in build/libhprun-test.a, which the unit tests and the fuzz harnesses link, and in
# build/hprun-test, for the end-to-end tests that need a knob. The library files that name
# HP_TEST_HOOKS are compiled a second time with it; the rest are shared.
# build/hprun, which `make install` and `make static` ship, has none of them.
HOOK_SRC  := $(shell grep -l HP_TEST_HOOKS $(LIB_SRC))
HOOK_OBJ  := $(HOOK_SRC:%.c=$(BUILD)/hooks/%.o)
LIBHPRUN_TEST := $(BUILD)/libhprun-test.a
HPRUN_TEST := $(BUILD)/hprun-test

.PHONY: all deps deps-run run check unit e2e asan static clean hip hip-check bench lint format format-check \
        fuzz fuzz-build fuzz-check install uninstall

all: $(HPRUN) $(HPRUN_TEST) $(UNIT_BIN) $(FAKE_BIN) $(APP_BIN)

# Every machine (and every CI run) starts bare: the project installs what it needs itself.
# `deps` is the test stack `make check` needs; `deps-run` only what the quickstart needs
# (scripts/deps.sh lists both, and its switches).
deps:
	@sh scripts/deps.sh check

deps-run:
	@sh scripts/deps.sh run

.PHONY: FORCE
$(FLAGS_STAMP): FORCE
	@mkdir -p $(dir $@)
	@echo '$(CC) $(FINAL_CFLAGS)' | cmp -s - $@ || echo '$(CC) $(FINAL_CFLAGS)' >$@

$(BUILD)/lib/%.o: lib/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -c $< -o $@

$(BUILD)/cmd/%.o: cmd/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -c $< -o $@

$(LIBHPRUN): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(HPRUN): $(CMD_OBJ) $(LIBHPRUN)
	$(CC) $(FINAL_CFLAGS) -o $@ $(CMD_OBJ) $(LIBHPRUN) $(LIBS)

$(BUILD)/hooks/lib/%.o: lib/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -DHP_TEST_HOOKS -c $< -o $@

$(LIBHPRUN_TEST): $(filter-out $(HOOK_SRC:%.c=$(BUILD)/%.o),$(LIB_OBJ)) $(HOOK_OBJ)
	rm -f $@
	ar rcs $@ $^

$(HPRUN_TEST): $(CMD_OBJ) $(LIBHPRUN_TEST)
	$(CC) $(FINAL_CFLAGS) -o $@ $(CMD_OBJ) $(LIBHPRUN_TEST) $(LIBS)

$(BUILD)/tests/%: tests/unit/%.c $(LIBHPRUN_TEST) $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -DHP_TEST_HOOKS -Itests/unit -o $@ $< $(LIBHPRUN_TEST) -lcmocka $(LIBS)

$(BUILD)/fake/%: tests/fake/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -o $@ $< -lm

$(BUILD)/apps/%: tests/apps/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(FINAL_CFLAGS) -o $@ $< -lm

# Only hprun and the demo apps: the unit tests need cmocka, which `make run` does not install.
run: deps-run
	@$(MAKE) --no-print-directory $(HPRUN) $(APP_BIN)
	./$(HPRUN) configs/quickstart.yaml

unit: all
	@COUNTS=$(BUILD)/.counts-unit sh tests/run-unit.sh $(UNIT_BIN)

e2e: all
	@COUNTS=$(BUILD)/.counts-e2e sh tests/e2e/run.sh $(BUILD)

# Every C file the project formats: the library, the CLI, the tests, the test doubles and demo apps.
FORMAT_SRC = $(sort $(wildcard lib/*/*.[ch] lib/*/*/*.[ch] cmd/*.[ch] tests/unit/*.[ch] tests/fake/*.[ch] \
                 tests/apps/*.[ch] tests/fuzz/*.[ch] hip/*.h hip/tests/*.c))
CLANG_FORMAT ?= clang-format

format:
	$(CLANG_FORMAT) -i $(FORMAT_SRC)

# Fails, naming the files, when any file differs from what clang-format (.clang-format) makes of it.
format-check:
	@$(CLANG_FORMAT) --dry-run -Werror $(FORMAT_SRC) 2>&1 | grep -oE '^[^ :]+\.[ch]:[0-9]+:[0-9]+: ' | cut -d: -f1 | sort -u | \
	  sed 's/^/format-check: not formatted (run make format): /' | grep . >&2 && exit 1; \
	  echo "format-check: ok ($(words $(FORMAT_SRC)) files)"

# The architecture rules that a compiler does not check: layering and cycles (of includes, and of
# symbol uses read from the library's objects, hence their prerequisite), sizes, file names in
# comments, formatting, and a module list in docs/internals/architecture.md that names every file.
lint: $(LIB_OBJ)
	@sh scripts/check-layers . $(BUILD)
	@sh scripts/check-size
	@sh scripts/check-names
	@python3 scripts/gen-architecture.py --check
	@$(MAKE) --no-print-directory format-check

# The last line counts every test program, end-to-end test and fuzz harness (CI reads it), and
# fails the target when any failed. fuzz-check comes last: it is the slowest (about a minute with
# the default FUZZ_SECONDS=20), and when it fails (or cannot even be built) the count still says so.
check: deps
	@$(MAKE) --no-print-directory lint
	@$(MAKE) --no-print-directory all WERROR=-Werror
	@$(MAKE) --no-print-directory hip-check WERROR=-Werror
	@$(MAKE) --no-print-directory unit WERROR=-Werror
	@$(MAKE) --no-print-directory e2e WERROR=-Werror
	@rm -f $(BUILD)/.counts-fuzz; \
	  $(MAKE) --no-print-directory fuzz-check WERROR=-Werror FUZZ_COUNTS=$(BUILD)/.counts-fuzz || \
	  test -s $(BUILD)/.counts-fuzz || echo "0 1" >$(BUILD)/.counts-fuzz
	@cat $(BUILD)/.counts-unit $(BUILD)/.counts-e2e $(BUILD)/.counts-fuzz | \
	  awk '{p += $$1; f += $$2} END {printf "check: %d passed, %d failed\n", p, f; exit (f > 0)}'

# The same tests with AddressSanitizer and UndefinedBehaviorSanitizer, in a separate build folder.
# allocator_may_return_null: the tests of allocation failure ask for sizes no allocator can give
# (test_buf's SIZE_MAX / 2), and the code under test must see NULL, as it would from glibc, rather
# than ASan aborting the test program.
# The quickstart (test_terminal, test_html) starts build/apps/cpukernel by its path, so the
# default build is made first.
asan: export ASAN_OPTIONS = allocator_may_return_null=1
asan: all
	@$(MAKE) --no-print-directory BUILD=build-asan OPT="-O1 -g -fno-omit-frame-pointer" \
	  SAN="-fsanitize=address,undefined -fno-sanitize-recover=undefined" unit e2e

# Fuzzing (docs/internals/fuzzing.md): the libFuzzer harnesses tests/fuzz/fuzz_*.c, built with clang
# into build-fuzz/: the library with coverage, ASan and UBSan, each harness linked with libFuzzer.
# Harnesses see only lib/include. Logs, found inputs and crashes stay in build-fuzz/.
#   make fuzz         fuzz each harness for FUZZ_SECONDS (default 60) from its corpus, one at a time
#   make fuzz-check   replay every file of tests/fuzz/corpus, then fuzz each harness FUZZ_SECONDS
#                     (default 20); fails on any crash, leak, timeout or out-of-memory
# FUZZ_NAMES=fuzz_plan picks harnesses; FUZZ_ARGS adds libFuzzer options (-fork=1 -ignore_crashes=1).
FUZZ_CC     ?= clang
FUZZ_BUILD   = build-fuzz
FUZZ_NAMES  := $(sort $(patsubst tests/fuzz/%.c,%,$(wildcard tests/fuzz/fuzz_*.c)))
FUZZ_SAN     = -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
# The summary reader scans each run's folder: the harness confines that to its scratch folder.
FUZZ_LDFLAGS_fuzz_summary = -Wl,--wrap=hp_profile_add_path
# One harness $$h, as the recipes below run it. TMPDIR holds the harnesses' scratch folders (a
# crash skips their exit-time cleanup); a crashing input is saved under build-fuzz/crashes/$$h/.
FUZZ_RUN     = TMPDIR=$(CURDIR)/$(FUZZ_BUILD)/tmp UBSAN_OPTIONS=print_stacktrace=1 \
               $(FUZZ_BUILD)/fuzz/$$h -timeout=10 -rss_limit_mb=2048 \
               -artifact_prefix=$(FUZZ_BUILD)/crashes/$$h/
FUZZ_DICT    = $$(test -f tests/fuzz/$$h.dict && echo -dict=tests/fuzz/$$h.dict)
# Prints the end of a failed harness's log and marks the harness (hst) and the target failed.
FUZZ_FAIL    = { st=1; hst=1; tail -n 40 "$$log" >&2; echo "fuzz: $$h FAILED (log: $$log)" >&2; }
FUZZ_PREP    = st=0; rm -rf $(FUZZ_BUILD)/tmp; mkdir -p $(FUZZ_BUILD)/logs

fuzz-build:
	@command -v $(FUZZ_CC) >/dev/null || \
	  { echo "fuzz: $(FUZZ_CC) not found (make deps installs clang and libclang-rt-dev)" >&2; exit 1; }
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=$(FUZZ_CC) \
	  OPT="-O1 -g -fno-omit-frame-pointer" SAN="$(FUZZ_SAN)" \
	  $(FUZZ_NAMES:%=$(FUZZ_BUILD)/fuzz/%)

.PRECIOUS: $(BUILD)/fuzz/obj/%.o
$(BUILD)/fuzz/obj/%.o: tests/fuzz/%.c $(FLAGS_STAMP)
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -c $< -o $@

$(BUILD)/fuzz/fuzz_%: $(BUILD)/fuzz/obj/fuzz_%.o $(BUILD)/fuzz/obj/scratch.o $(LIBHPRUN_TEST)
	$(CC) $(BASE_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LDFLAGS_fuzz_$*) $(LIBS)

# New inputs go to build-fuzz/corpus/<harness>, kept between runs; tests/fuzz/corpus is only read.
fuzz: fuzz-build
	@$(FUZZ_PREP); for h in $(FUZZ_NAMES); do \
	  log=$(FUZZ_BUILD)/logs/$$h.fuzz.log; \
	  mkdir -p $(FUZZ_BUILD)/corpus/$$h $(FUZZ_BUILD)/crashes/$$h; \
	  echo "fuzz: $$h for $(or $(FUZZ_SECONDS),60) s (log: $$log)"; \
	  $(FUZZ_RUN) $(FUZZ_ARGS) -max_total_time=$(or $(FUZZ_SECONDS),60) $(FUZZ_DICT) \
	    $(FUZZ_BUILD)/corpus/$$h tests/fuzz/corpus/$$h >"$$log" 2>&1 || $(FUZZ_FAIL); \
	  grep -a '^Done [0-9]* runs' "$$log" | tail -n 1; \
	done; rm -rf $(FUZZ_BUILD)/tmp; exit $$st

# Every corpus file once (named on the command line, so the log says which one failed), then a
# short fuzzing run from an empty work folder. FUZZ_COUNTS names a file that gets "PASSED FAILED",
# counted in harnesses, for the closing line of `make check`.
fuzz-check: fuzz-build
	@$(FUZZ_PREP); np=0; nf=0; for h in $(FUZZ_NAMES); do hst=0; \
	  log=$(FUZZ_BUILD)/logs/$$h.replay.log; mkdir -p $(FUZZ_BUILD)/crashes/$$h; \
	  echo "fuzz-check: $$h: replaying $$(find tests/fuzz/corpus/$$h -type f | wc -l) files"; \
	  find tests/fuzz/corpus/$$h -type f | sort | xargs -r env $(FUZZ_RUN) \
	    >"$$log" 2>&1 || $(FUZZ_FAIL); \
	  log=$(FUZZ_BUILD)/logs/$$h.check.log; work=$(FUZZ_BUILD)/check-corpus/$$h; \
	  rm -rf "$$work"; mkdir -p "$$work"; \
	  echo "fuzz-check: $$h: fuzzing for $(or $(FUZZ_SECONDS),20) s"; \
	  $(FUZZ_RUN) $(FUZZ_ARGS) -max_total_time=$(or $(FUZZ_SECONDS),20) $(FUZZ_DICT) \
	    "$$work" tests/fuzz/corpus/$$h >"$$log" 2>&1 || $(FUZZ_FAIL); \
	  if [ $$hst = 0 ]; then np=$$((np + 1)); else nf=$$((nf + 1)); fi; \
	done; rm -rf $(FUZZ_BUILD)/tmp; \
	if [ -n "$(FUZZ_COUNTS)" ]; then echo "$$np $$nf" >"$(FUZZ_COUNTS)"; fi; \
	if [ $$st = 0 ]; then echo "fuzz-check: ok ($(words $(FUZZ_NAMES)) harnesses)"; fi; exit $$st

# A static binary for machines without libyaml/libuv (the GPU box has no package registry).
static: $(CMD_OBJ) $(LIBHPRUN)
	$(CC) $(FINAL_CFLAGS) -static -o $(BUILD)/hprun-static $(CMD_OBJ) $(LIBHPRUN) \
	  /usr/lib/x86_64-linux-gnu/libyaml.a /usr/lib/x86_64-linux-gnu/libuv_a.a \
	  /usr/lib/x86_64-linux-gnu/libz.a -lm -lpthread -ldl

bench: $(HPRUN)
	sh scripts/bench

clean:
	rm -rf $(BUILD) build-asan $(FUZZ_BUILD)

# Installation, as a tool: the binary, hprun(1) and hprun-plan(5), bash completion, the torch tool's
# launcher (share/hprun/hprun_torch.py, found as BIN/../share/hprun/) and the example plans in
# share/hprun/configs. DESTDIR stages the whole tree elsewhere (packaging, the tests);
# `make uninstall` with the same PREFIX and DESTDIR removes exactly these files, then the folders
# under share/hprun that are left empty (deepest first, so that each is empty by then unless
# something else is in it).
PREFIX      ?= /usr/local
BINDIR      ?= $(PREFIX)/bin
MANDIR      ?= $(PREFIX)/share/man
DATADIR     ?= $(PREFIX)/share/hprun
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
INSTALL     ?= install
CONFIGS     := $(sort $(wildcard configs/*.yaml configs/examples/*.yaml configs/categories/*.yaml \
                 configs/demo/*.sh configs/peaks/*.yaml))

install: $(HPRUN)
	$(INSTALL) -D -m 755 $(HPRUN) "$(DESTDIR)$(BINDIR)/hprun"
	$(INSTALL) -D -m 644 docs/man/hprun.1 "$(DESTDIR)$(MANDIR)/man1/hprun.1"
	$(INSTALL) -D -m 644 docs/man/hprun-plan.5 "$(DESTDIR)$(MANDIR)/man5/hprun-plan.5"
	$(INSTALL) -D -m 644 scripts/completion/hprun.bash "$(DESTDIR)$(BASHCOMPDIR)/hprun"
	$(INSTALL) -D -m 644 share/hprun/hprun_torch.py "$(DESTDIR)$(DATADIR)/hprun_torch.py"
	$(INSTALL) -D -m 644 scripts/gemm_peaks.py "$(DESTDIR)$(DATADIR)/gemm_peaks.py"
	@for f in $(CONFIGS); do \
	  echo "$(INSTALL) -D -m 644 $$f $(DESTDIR)$(DATADIR)/$$f"; \
	  $(INSTALL) -D -m 644 "$$f" "$(DESTDIR)$(DATADIR)/$$f" || exit 1; \
	done

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/hprun" "$(DESTDIR)$(MANDIR)/man1/hprun.1" \
	  "$(DESTDIR)$(MANDIR)/man5/hprun-plan.5" "$(DESTDIR)$(BASHCOMPDIR)/hprun" \
	  "$(DESTDIR)$(DATADIR)/hprun_torch.py" \
	  "$(DESTDIR)$(DATADIR)/gemm_peaks.py"
	@for f in $(CONFIGS); do \
	  echo "rm -f $(DESTDIR)$(DATADIR)/$$f"; rm -f "$(DESTDIR)$(DATADIR)/$$f"; \
	done
	@printf '%s\n' $(patsubst %/,%,$(sort $(dir $(CONFIGS)))) | sort -r | while read -r d; do \
	  rmdir "$(DESTDIR)$(DATADIR)/$$d" 2>/dev/null || true; \
	done
	@rmdir "$(DESTDIR)$(DATADIR)" 2>/dev/null || true

-include hip/hip.mk
-include $(LIB_OBJ:.o=.d) $(HOOK_OBJ:.o=.d) $(CMD_OBJ:.o=.d) $(FAKE_BIN:=.d) $(APP_BIN:=.d) $(UNIT_BIN:=.d)
-include $(wildcard $(BUILD)/fuzz/obj/*.d)
