# hprun check preflights the output folder: where the run could not create its session folder
# (a file on the way, a folder it may not write in), check fails with the run's own
# `cannot create` message and exit code (4), and it creates nothing; a folder that does not exist
# yet but could be made passes, and stays unmade.
. "$(dirname "$0")/lib.sh"

outplan() { # FILE OUTPUT
  printf 'name: co\noutput: %s\nrepeat: 1\napp: {command: [%s, --sleep, "0"]}\nmetrics: [mean_kernel_ms]\npasses: [normal]\n' \
    "$2" "$FAKEAPP" >"$T/$1"
  chmod a+r "$T/$1"
}
# check_as_run PLAN [PREFIX...]: check and the run, both exit 4 with the same message.
check_as_run() {
  _p=$1; shift
  expect_exit 4 "$@" "$HPRUN" check "$T/$_p"
  grep -q "^hprun: error: cannot create " "$T/err" || { cat "$T/err"; fail "$_p: check's message"; }
  sed 's/-<YYYYmmdd-HHMMSS>:/-STAMP:/' "$T/err" >"$T/check-err"
  expect_exit 4 "$@" "$HPRUN" --quiet "$T/$_p"
  grep '^hprun: error: cannot create ' "$T/err" | sed 's/-[0-9]\{8\}-[0-9]\{6\}:/-STAMP:/' >"$T/run-err"
  cmp -s "$T/check-err" "$T/run-err" || { diff "$T/check-err" "$T/run-err"; fail "$_p: check and run differ"; }
}

: >"$T/afile"
outplan file.yaml "afile/sessions"
check_as_run file.yaml
grep -q "cannot create $T/\(\./\)\{0,1\}afile/sessions: Not a directory" "$T/check-err" || { cat "$T/check-err"; fail "a file on the way"; }
outplan isfile.yaml "afile"
check_as_run isfile.yaml
ok "check: an output path through a file fails as the run does (exit 4, the same message)"

outplan new.yaml "not/yet/there"
expect_exit 0 "$HPRUN" check "$T/new.yaml"
[ ! -e "$T/not" ] || fail "check created the output folder"
expect_exit 0 "$HPRUN" check --no-preflight "$T/file.yaml"
ok "check: a folder that can be made passes and is not made; --no-preflight skips the output"

# A folder the user may not write in: as root, checked as nobody (root may write anywhere).
mkdir -p "$T/ro/sub"
chmod 555 "$T/ro/sub" "$T/ro"
chmod 755 "$T"
outplan ro.yaml "ro/sub"
outplan ro2.yaml "ro/new"
AS=""
if [ "$(id -u)" = 0 ]; then
  command -v setpriv >/dev/null 2>&1 && AS="setpriv --reuid=65534 --regid=65534 --clear-groups"
fi
if [ "$(id -u)" != 0 ] || [ -n "$AS" ]; then
  # shellcheck disable=SC2086
  check_as_run ro.yaml $AS
  grep -q "cannot create $T/ro/sub/co-STAMP: Permission denied" "$T/check-err" || { cat "$T/check-err"; fail "a read-only folder"; }
  # shellcheck disable=SC2086
  check_as_run ro2.yaml $AS
  grep -q "cannot create $T/ro/new: Permission denied" "$T/check-err" || { cat "$T/check-err"; fail "a folder it cannot make"; }
  ok "check: a folder it may not write in fails as the run does (exit 4, the same message)"
else
  echo "skip: read-only folders (root without setpriv)"
fi
chmod 755 "$T/ro" "$T/ro/sub"
