# Files a run leaves in app.cwd reach its folder even when the session lies on another file system
# (a tmpfs here, as scratch or NFS would be): they are copied, then removed, and a file that cannot
# cross (a FIFO) fails its run with exit 3 and a fail: line that names it, never an empty profile.
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" != 0 ]; then
  echo "skipped: test_exdev needs root to mount a tmpfs (run as root to check the EXDEV path)"
  exit 0
fi
mkdir -p "$T/scratch" "$T/proj"
if ! mount -t tmpfs -o size=16m hprun-e2e "$T/scratch" 2>"$T/mount.err"; then
  echo "skipped: test_exdev could not mount a tmpfs: $(cat "$T/mount.err")"
  exit 0
fi
trap 'rc=$?; umount "$T/scratch" 2>/dev/null; rm -rf "$T"; [ "$rc" = 0 ] || echo "test ended with status $rc" >&2' EXIT
[ "$(stat -c %d "$T/scratch")" != "$(stat -c %d "$T/proj")" ] || fail "the tmpfs is not another file system"

P="$T/proj"
# The app leaves a file, a folder with a file and a link in its folder, as hipprof leaves its CSVs.
cat >"$P/app.sh" <<'SH'
echo "Name,Calls,TotalDurationNs,AverageNs,Percentage" >"result_$HPRUN_RUN.kernel.csv"
echo "k,3,300,100,100" >>"result_$HPRUN_RUN.kernel.csv"
mkdir "out_$HPRUN_RUN"; echo deep >"out_$HPRUN_RUN/inner.txt"
ln -s "result_$HPRUN_RUN.kernel.csv" "link_$HPRUN_RUN"
[ -z "${FIFO:-}" ] || mkfifo "pipe_$HPRUN_RUN"
echo "m=1"
SH
cat >"$P/plan.yaml" <<YAML
name: exdev
output: $T/scratch/sessions
repeat: 1
warmup: 0
app:
  command: sh app.sh
metrics: [m]
passes: [normal]
YAML
expect_exit 0 "$HPRUN" --quiet "$P/plan.yaml"
S=$(session_dir "$T/scratch/sessions")
[ -f "$S/normal/1/result_1.kernel.csv" ] || fail "the kernel CSV did not reach the run folder: $(ls -R "$S")"
grep -q "^k,3,300" "$S/normal/1/result_1.kernel.csv" || fail "the copy lost bytes"
[ -f "$S/normal/1/out_1/inner.txt" ] || fail "the folder was not copied"
[ -L "$S/normal/1/link_1" ] || fail "the link was not kept as a link"
ls "$P" | grep -qv -e '^app.sh$' -e '^plan.yaml$' && fail "files stayed in the app's folder: $(ls "$P")"
grep -q "moved into normal/1/" "$T/err" || fail "no warning about the move: $(cat "$T/err")"
ok "files left in app.cwd cross to a session on another file system"

# A FIFO cannot be copied: the run fails (exit 3), the error and the fail: line name it.
rm -rf "$T/scratch/sessions"
FIFO=1 expect_exit 3 "$HPRUN" --quiet "$P/plan.yaml"
grep -q "error: run normal/1 left 'pipe_1' in $P; it could not be moved into normal/1/" "$T/err" ||
  fail "no error naming the FIFO: $(cat "$T/err")"
grep -q "^fail: .*pipe_1" "$T/out" "$T/err" || fail "no fail: line naming the FIFO: $(cat "$T/out" "$T/err")"
S=$(session_dir "$T/scratch/sessions")
[ -f "$S/normal/1/result_1.kernel.csv" ] || fail "the movable files did not move"
[ -p "$P/pipe_1" ] || fail "the FIFO vanished"
ok "a file that cannot be moved fails its run with exit 3, named"
