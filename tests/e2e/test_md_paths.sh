# report.md names every file relative to the session folder, also when the session's path holds
# a '|' or a line break (the profile tables escape them, which once left the paths absolute).
. "$(dirname "$0")/lib.sh"

nl='
'
for odd in "a|b" "a${nl}b"; do
  rm -rf "$T/o"
  mkdir -p "$T/o/$odd"
  cat >"$T/p.yaml" <<YAML
name: odd
output: sessions
repeat: 2
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "1"]
profiler: {path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats]
YAML
  cp "$T/p.yaml" "$T/o/$odd/p.yaml"
  (cd "$T/o/$odd" && expect_exit 0 "$HPRUN" --quiet p.yaml)
  S=$(ls -d "$T/o/$odd"/sessions/odd-2*)
  grep -q "result_.*kernel.csv" "$S/report.md" || fail "no profile files listed in report.md"
  if grep -F -q "$T" "$S/report.md"; then
    grep -F -n "$T" "$S/report.md" | head -5
    fail "report.md holds an absolute path under a session path with '$odd'"
  fi
  expect_exit 0 "$HPRUN" report --format md "$S"
  grep -F -q "$T" "$T/out" && fail "hprun report --format md printed an absolute path"
done
ok "report.md stays relative when the session path holds '|' or a line break"
