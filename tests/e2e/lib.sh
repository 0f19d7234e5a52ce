# Helpers for the end-to-end tests. Each test sources this file; BUILD is the build folder.
set -eu
: "${BUILD:?BUILD must name the build folder}"
HPRUN="${HPRUN:-$BUILD/hprun}"
FAKEAPP="$BUILD/apps/fakeapp"
FAKE_HIPPROF="$BUILD/fake/hipprof"
T=$(mktemp -d "${TMPDIR:-/tmp}/hprun-e2e.XXXXXX")
# A command failing under `set -e` ends the test silently: say so, with the status.
trap 'rc=$?; rm -rf "$T"; [ "$rc" = 0 ] || echo "test ended with status $rc (see above; set -e stops at a failing command)" >&2' EXIT

# The host's amdgpu sysfs files never reach a test: the sampler looks under this empty root
# (a test that wants a stand-in tree sets its own).
export HPRUN_TEST_SYSFS_ROOT="${HPRUN_TEST_SYSFS_ROOT:-$T/no-sysfs}"

# Debian's python3 when present: a version manager's shim on PATH can cost half a second a call.
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; else PY=python3; fi

fail() { echo "FAIL: $*" >&2; exit 1; }
ok() { echo "ok: $*"; }

# expect_exit CODE CMD...: runs CMD, saving stdout/stderr to $T/out and $T/err.
expect_exit() {
  want=$1; shift
  set +e
  "$@" >"$T/out" 2>"$T/err"
  got=$?
  set -e
  if [ "$got" != "$want" ]; then
    echo "--- stdout"; cat "$T/out"; echo "--- stderr"; cat "$T/err"
    fail "expected exit $want, got $got: $*"
  fi
}

# split_outputs PATH BYTES: `hprun summarize --top 0` of PATH in json and text, stdout then
# stderr, once as one pass ($T/NAME.FMT.whole, NAME = PATH's base name) and once read as ranges of
# BYTES (HPRUN_CHUNK_BYTES) with -j 1, 2 and 8 ($T/NAME.FMT.J). The callers compare them.
split_outputs() {
  _n=$(basename "$1")
  for _f in json text; do
    expect_exit 0 "$HPRUN" summarize -j 1 --format "$_f" --top 0 "$1"
    cat "$T/out" "$T/err" >"$T/$_n.$_f.whole"
    for _j in 1 2 8; do
      expect_exit 0 env HPRUN_CHUNK_BYTES="$2" "$HPRUN" summarize -j "$_j" --format "$_f" --top 0 "$1"
      cat "$T/out" "$T/err" >"$T/$_n.$_f.$_j"
    done
  done
}

# The one session folder under $1 (fails if there is not exactly one).
session_dir() {
  n=$(find "$1" -mindepth 1 -maxdepth 1 -type d | wc -l)
  [ "$n" = 1 ] || fail "expected one session folder in $1, found $n"
  find "$1" -mindepth 1 -maxdepth 1 -type d
}

# jq-like queries with python3: json_get FILE EXPR, EXPR in Python over `d`.
json_get() {
  "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# The pass object named $2 in summary.json $1, then an expression over `p`.
pass_get() {
  "$PY" -c "import json,sys; d=json.load(open(sys.argv[1])); p=[x for x in d['passes'] if x['name']==sys.argv[2]][0]; print($3)" "$1" "$2"
}

assert_eq() { [ "$1" = "$2" ] || fail "$3: expected '$2', got '$1'"; }

# assert_close A B TOL MSG
assert_close() {
  "$PY" -c "import sys; a,b,t=float(sys.argv[1]),float(sys.argv[2]),float(sys.argv[3]); sys.exit(0 if abs(a-b)<=t else 1)" "$1" "$2" "$3" \
    || fail "$4: expected $2 +- $3, got $1"
}

# No process whose command line mentions $1 may be alive.
# (Reads /proc directly: procps may not be installed on a bare machine.)
assert_no_process() {
  for f in /proc/[0-9]*/cmdline; do
    # A process may end between the glob and the read: the shell's own error is silenced too.
    c=$( { tr '\0' ' ' <"$f"; } 2>/dev/null) || continue
    case "$c" in
      *"$1"*) [ "${f#/proc/$$/}" = "$f" ] || continue
              fail "a process matching '$1' was left behind: ${f%/cmdline}: $c" ;;
    esac
  done
}

# The pids in file $1 must all be gone.
assert_pids_gone() {
  for pid in $(cat "$1"); do
    if kill -0 "$pid" 2>/dev/null; then
      # It may vanish between the two looks (a killed grandchild is reaped by init): not an error.
      st=$(sed -n 's/^State:[[:space:]]*//p' "/proc/$pid/status" 2>/dev/null || true)
      [ -n "$st" ] || continue
      case "$st" in Z*) continue ;; esac
      fail "process $pid ($st) from $1 is still alive"
    fi
  done
}

# csv_plan DIR NAME CSV: DIR/plan.yaml, a session (into DIR/out) whose command pass `ncu-roofline`
# puts the ncu CSV file CSV into its run folder as ncu.csv, where a real ncu capture leaves it, so
# that a report is made from a real capture without ncu.
csv_plan() {
  mkdir -p "$1"
  cat >"$1/plan.yaml" <<YAML
name: $2
output: $1/out
repeat: 1
app:
  command: [sh, -c, "echo step_ms=1"]
metrics:
  - {name: step_ms, unit: ms}
passes:
  - normal
  - name: ncu-roofline
    mode: command
    command: [sh, -c, 'cp "$3" "\$HPRUN_RUN_DIR/ncu.csv" && exec "\$0" "\$@"', "{app}"]
YAML
}
