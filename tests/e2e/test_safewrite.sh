# Nothing hprun writes lands outside the session folder, whatever a run plants in it; a file that
# cannot be written is reported (path and reason) and exits 4, and only files that were written
# are announced; secrets in the environment are stored as "<redacted>" (issue 9, items 6, 7, 9).
#
# The disk-full and read-only cases mount a tmpfs, which needs root: CI runs this as root, so a
# machine where mount fails FAILS here with the reason, instead of skipping in silence.
. "$(dirname "$0")/lib.sh"
SRC=$(cd "$(dirname "$0")/../.." && pwd)

MOUNTS=""
# lib.sh's trap, with the tmpfs mounts undone first (rm -rf must not meet a mount point).
trap 'rc=$?; for m in $MOUNTS; do umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null; done
      rm -rf "$T"
      [ "$rc" = 0 ] || echo "test ended with status $rc (see above; set -e stops at a failing command)" >&2' EXIT

# mount_tmpfs DIR OPTIONS
mount_tmpfs() {
  mkdir -p "$1"
  mount -t tmpfs -o "$2" tmpfs "$1" 2>"$T/mount.err" ||
    fail "cannot mount a tmpfs ($2) at $1: $(cat "$T/mount.err"). This test needs root and mount(8), as in CI"
  MOUNTS="$1 $MOUNTS"
}

# A folder outside every session, with a sentinel whose content, size, inode and mtime must not
# change and beside which nothing may appear.
OUT="$T/outside"
mkdir "$OUT"
echo untouched >"$OUT/sentinel"
touch -d '2020-01-02 03:04:05' "$OUT/sentinel"
outside_state() { stat -c '%Y %s %i %h' "$OUT/sentinel"; cat "$OUT/sentinel"; ls -A "$OUT"; }
OUTSIDE_BEFORE=$(outside_state)
assert_outside_untouched() {
  [ "$(outside_state)" = "$OUTSIDE_BEFORE" ] ||
    fail "$1: something was written outside the session: $(ls -lA "$OUT"; cat "$OUT/sentinel")"
}

# Every "summary: PATH" and "report: PATH" that hprun announced must exist, and a file that was
# not written must be announced as such.
assert_announced_exist() {
  line=$(grep '^summary: ' "$T/out") || fail "no summary/report line: $(cat "$T/out")"
  for p in $line; do
    case "$p" in /*) [ -f "$p" ] || fail "announced but not written: $p" ;; esac
  done
  for f in summary.json report.md; do
    [ -f "$1/$f" ] || echo "$line" | grep -q "${f%.*}: not written" || fail "$f neither written nor said absent"
  done
}

cat >"$T/app.sh" <<'EOF'
#!/bin/sh
# The test's app: does what $PLANT says once, in its first run, then prints its metric.
S=${HPRUN_RUN_DIR%/*/*}
if [ "$HPRUN_RUN" = 1 ] && [ "$HPRUN_PASS" = normal ]; then
  echo "$PPID" >"$MARK.ppid"
  case "$PLANT" in
    pass-link) ln -s "$OUTSIDE" "$S/wrapped" ;;
    replace-own) rm -rf "$S/normal" && ln -s "$OUTSIDE" "$S/normal" ;;
    temp-link) ln -s "$OUTSIDE/sentinel" "$S/summary.json.tmp.$PPID"
               ln -s "$OUTSIDE/sentinel" "$S/manifest.json.tmp.$PPID" ;;
  esac
fi
[ "${MY_PASSWORD:-}" = hunter2 ] && touch "$MARK.env"
# hprun holds the session folder open; its children must not inherit that descriptor.
for fd in /proc/$$/fd/*; do [ "$(readlink "$fd")" != "$S" ] || touch "$MARK.leak"; done
touch "$MARK.ran"
echo "mean_kernel_ms=1.5"
EOF
chmod +x "$T/app.sh"
# The marks live in a folder of their own: a file a run adds to the plan's folder (its cwd) would
# be moved into the run's folder.
mkdir -p "$T/marks"
export OUTSIDE="$OUT" MARK="$T/marks/mark"

cat >"$T/two.yaml" <<YAML
name: two
output: sessions
app: {command: [$T/app.sh]}
metrics: [mean_kernel_ms]
passes:
  - normal
  - {name: wrapped, mode: command, command: ["{app}"]}
YAML

# (a) A link planted where a later pass's folder goes: hprun refuses to create (or follow) it.
cd "$T"
export PLANT=pass-link
expect_exit 4 "$HPRUN" --quiet two.yaml
S=$(session_dir "$T/sessions")
grep -qF "hprun: error: cannot create $S/wrapped: it exists already" "$T/err" ||
  { cat "$T/err"; fail "pass-link: the refusal does not name $S/wrapped"; }
[ "$(grep -c 'hprun: error:' "$T/err")" = 1 ] || { cat "$T/err"; fail "pass-link: one message expected"; }
assert_outside_untouched "pass-link"
[ -L "$S/wrapped" ] && [ "$(readlink "$S/wrapped")" = "$OUT" ] || fail "the planted link was changed"
assert_announced_exist "$S"
grep -qx "summary: $S/summary.json  report: $S/report.md" "$T/out" || fail "pass-link: reports not announced"
# What was measured before the refusal is kept, and the run that never ran says why.
assert_eq "$(pass_get "$S/summary.json" normal "p['runs'][0]['values']['mean_kernel_ms']")" 1.5 "normal's value kept"
pass_get "$S/summary.json" wrapped "p['advice']" | grep -q "did not run: cannot create $S/wrapped" ||
  fail "wrapped's advice: $(pass_get "$S/summary.json" wrapped "p['advice']")"
json_get "$S/summary.json" "d['error']" | grep -qF "cannot create $S/wrapped" || fail "summary error"
assert_eq "$(json_get "$S/summary.json" "d['exit_code']")" 4 "summary.json's exit_code"
ok "a link planted at a pass's folder is refused: exit 4, path named, nothing written outside"

# A folder hprun made, replaced by a link between two runs: the next run does not follow it.
rm -rf "$T/sessions"
cat >"$T/rep.yaml" <<YAML
name: rep
output: sessions
repeat: 2
app: {command: [$T/app.sh]}
metrics: [mean_kernel_ms]
passes: [normal]
YAML
export PLANT=replace-own
expect_exit 4 "$HPRUN" --quiet rep.yaml
S=$(session_dir "$T/sessions")
grep -qF "hprun: error: cannot create $S/normal/2: a symbolic link is in the way" "$T/err" ||
  { cat "$T/err"; fail "replace-own: the refusal does not name $S/normal/2"; }
assert_outside_untouched "replace-own"
assert_announced_exist "$S"
ok "a pass folder replaced by a link is not followed by the next run"

# The temporary names of summary.json and manifest.json planted as links to the sentinel: both
# writes are refused (the sentinel is not followed), and report.md is written all the same.
rm -rf "$T/sessions"
export PLANT=temp-link
expect_exit 4 "$HPRUN" --quiet two.yaml
S=$(session_dir "$T/sessions")
P=$(cat "$MARK.ppid")
for f in summary.json manifest.json; do
  grep -qF "hprun: error: cannot write $S/$f: its temporary name $S/$f.tmp.$P exists already" "$T/err" ||
    { cat "$T/err"; fail "temp-link: no refusal naming $S/$f.tmp.$P"; }
  [ "$(readlink "$S/$f.tmp.$P")" = "$OUT/sentinel" ] || fail "temp-link: the planted $f link was changed"
  [ ! -e "$S/$f" ] || fail "temp-link: $f exists although its write was refused"
done
assert_outside_untouched "temp-link"
assert_announced_exist "$S"
grep -qx "summary: not written  report: $S/report.md" "$T/out" || { cat "$T/out"; fail "temp-link: announcement"; }
[ -s "$S/report.md" ] || fail "report.md was not written after summary.json failed"
ok "a link planted at a temporary name is refused; the other report is still written"

# (b) A full disk: a 1 MiB tmpfs as the output folder, filled by the run's own output.
cat >"$T/fill.sh" <<'EOF'
#!/bin/sh
echo "mean_kernel_ms=2.5"
head -c 2000000 /dev/zero | tr '\0' x
echo
EOF
chmod +x "$T/fill.sh"
export PLANT=none
mount_tmpfs "$T/full" size=1m
cat >"$T/fill.yaml" <<YAML
name: fill
output: full
repeat: 2
app: {command: [$T/fill.sh]}
metrics: [mean_kernel_ms]
passes: [normal]
YAML
expect_exit 4 "$HPRUN" --quiet fill.yaml
S=$(session_dir "$T/full")
grep -q "^hprun: error: cannot write $S/[^ ]*: No space left on device$" "$T/err" ||
  { cat "$T/err"; fail "full disk: no 'cannot write PATH: No space left on device'"; }
# Each failure once.
[ "$(grep 'hprun: error:' "$T/err" | sort | uniq -d | wc -l)" = 0 ] || { cat "$T/err"; fail "a message repeated"; }
if [ -f "$S/summary.json" ]; then
  json_get "$S/summary.json" "d['name']" >/dev/null || fail "summary.json was written but is not whole"
else
  grep -qF "cannot write $S/summary.json: No space left on device" "$T/err" || fail "summary.json's absence is not stated"
  grep -q "^summary: not written" "$T/out" || fail "summary.json announced although absent"
fi
assert_announced_exist "$S"
# The run whose stdout.txt was cut is not blamed on the metric pattern.
grep -q "output could not be saved" "$T/out" || { cat "$T/out"; fail "the lost output is not named"; }
! grep -q "metric pattern" "$T/out" || { cat "$T/out"; fail "a lost output blamed on the metric pattern"; }
grep -qF "cannot write $S/normal/1/stdout.txt: No space left on device" "$T/err" || { cat "$T/err"; fail "stdout.txt not named"; }
assert_outside_untouched "full disk"
ok "a full disk: exit 4, each path with 'No space left on device', only written files announced"

# (c) A read-only output folder: nothing can be created, so nothing runs.
mount_tmpfs "$T/ro" ro
rm -f "$MARK.ran"
sed 's/^output: .*/output: ro/' "$T/rep.yaml" >"$T/ro.yaml"
expect_exit 4 "$HPRUN" --quiet ro.yaml
grep -q "^hprun: error: cannot create $T/ro/rep-[0-9]\{8\}-[0-9]\{6\}: Read-only file system$" "$T/err" ||
  { cat "$T/err"; fail "read-only: message"; }
[ ! -e "$MARK.ran" ] || fail "read-only: the app ran although no session folder could be made"
[ -z "$(ls -A "$T/ro")" ] || fail "read-only: something appeared"
! grep -q "^summary: " "$T/out" || fail "read-only: a summary was announced"
expect_exit 4 "$HPRUN" --quiet --output ro/deeper ro.yaml
grep -qx "hprun: error: cannot create $T/ro/deeper: Read-only file system" "$T/err" || { cat "$T/err"; fail "read-only parent"; }
ok "a read-only output folder: exit 4, the path and the reason, nothing run"

# (d) Secrets: stored as "<redacted>" everywhere, the plan copy included.
rm -rf "$T/sessions"
cat >"$T/env.yaml" <<YAML
name: env
output: sessions
app:
  command: [$T/app.sh]
  env: {MY_PASSWORD: hunter2}
metrics: [mean_kernel_ms]
passes: [normal]
YAML
rm -f "$MARK.env"
export PLANT=none
expect_exit 0 env NVIDIA_API_KEY=abc HPRUN_TOKEN=xyz NCCL_IB_PASSWORD=pw-nccl-77 \
  HIP_VISIBLE_DEVICES=3 "$HPRUN" --quiet env.yaml
S=$(session_dir "$T/sessions")
[ -e "$MARK.env" ] || fail "the app did not get MY_PASSWORD from app.env"
[ ! -e "$MARK.leak" ] || fail "the app inherited hprun's descriptor of the session folder"
M="$S/manifest.json"
for k in NVIDIA_API_KEY HPRUN_TOKEN NCCL_IB_PASSWORD; do
  assert_eq "$(json_get "$M" "d['environment']['$k']")" "<redacted>" "manifest $k"
done
assert_eq "$(json_get "$M" "d['environment']['HIP_VISIBLE_DEVICES']")" 3 "a variable that is no secret"
for v in abc xyz pw-nccl-77 hunter2; do
  found=$(grep -rlwF -- "$v" "$S" || true)
  [ -z "$found" ] || fail "the secret '$v' was copied into $found"
  ! grep -qwF -- "$v" "$T/out" "$T/err" || fail "the secret '$v' was printed"
done
# The plan copy redacts the value of a secret-named app.env entry (docs/summary.md, "Secrets").
grep -q "MY_PASSWORD: <redacted>" "$S/plan.yaml" || fail "the plan copy keeps MY_PASSWORD: $(grep -n MY_PASSWORD "$S/plan.yaml")"
ok "secrets are redacted in manifest.json, the plan copy and everywhere else"
