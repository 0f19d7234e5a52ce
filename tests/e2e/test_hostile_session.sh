# A stored session folder that was tampered with costs bounded time and memory: summary.json,
# manifest.json or the plan copy that is a device, a FIFO or a huge file is refused at once (a
# summary.json with exit 4, naming the file), and a pass `flag` that is missing or unknown is a
# schema error (exit 4) that names the member, never read as `failed`.
. "$(dirname "$0")/lib.sh"

cat >"$T/p.yaml" <<YAML
name: hostile
output: sessions
repeat: 2
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "1"]
profiler: {path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats]
YAML
(cd "$T" && expect_exit 0 "$HPRUN" --quiet p.yaml)
GOOD=$(ls -d "$T"/sessions/hostile-latest)

fresh() { rm -rf "$T/s"; cp -rL "$GOOD" "$T/s"; }
edit() { # PYTHON over d, the summary of $T/s
  "$PY" - "$T/s/summary.json" "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
}

# The pass flag: missing, or a name this hprun does not know.
fresh; edit 'del d["passes"][1]["flag"]'
expect_exit 4 "$HPRUN" report "$T/s"
grep -q "summary.json: error: passes\[1\].flag: missing or not a string" "$T/err" ||
  fail "missing flag: $(cat "$T/err")"
grep -q "^fail:" "$T/out" "$T/err" && fail "a missing flag printed fail: lines"
fresh; edit 'd["passes"][1]["flag"] = "healthy"'
expect_exit 4 "$HPRUN" report "$T/s"
grep -q "passes\[1\].flag: \"healthy\" is not a flag this hprun knows" "$T/err" ||
  fail "unknown flag: $(cat "$T/err")"
expect_exit 4 "$HPRUN" compare "$GOOD" "$T/s"
ok "a missing or unknown pass flag is a schema error, exit 4"

# summary.json as a device link, a FIFO, a folder: refused at once, exit 4, within the timeout.
for kind in dev fifo dir huge; do
  fresh; rm "$T/s/summary.json"
  case $kind in
    dev) ln -s /dev/zero "$T/s/summary.json"; msg="not a regular file" ;;
    fifo) mkfifo "$T/s/summary.json"; msg="not a regular file" ;;
    dir) mkdir "$T/s/summary.json"; msg="not a regular file" ;;
    huge) truncate -s 600M "$T/s/summary.json"; msg="over the limit of 512 MiB" ;;
  esac
  expect_exit 4 timeout 20 "$HPRUN" report "$T/s"
  grep -q "summary.json: error: cannot read: $msg" "$T/err" || fail "$kind: $(cat "$T/err")"
  expect_exit 4 timeout 20 "$HPRUN" compare "$GOOD" "$T/s"
done
ok "a summary.json that is a device, FIFO, folder or over 512 MiB is refused at once"

# manifest.json and the plan copy as device links or FIFOs: the report still comes, at once.
for kind in dev fifo; do
  fresh; rm "$T/s/manifest.json" "$T/s/plan.yaml"
  if [ $kind = dev ]; then
    ln -s /dev/zero "$T/s/manifest.json"; ln -s /dev/zero "$T/s/plan.yaml"
  else
    mkfifo "$T/s/manifest.json" "$T/s/plan.yaml"
  fi
  expect_exit 0 timeout 20 "$HPRUN" report "$T/s"
  grep -q "plan.yaml: warning: the plan copy is not a regular file" "$T/err" ||
    fail "$kind plan copy: $(cat "$T/err")"
  expect_exit 0 timeout 20 "$HPRUN" compare "$GOOD" "$T/s"
done
ok "a manifest.json or plan copy that is a device or FIFO costs nothing"
