# report.md fits a PR comment at any number of runs (issue 10, item 9): a real session of 1,000
# runs (4 passes of 250, a fast app under the stand-in hipprof) gives a report.md under 60 KB,
# each pass's runs in a collapsed <details> block of at most 50 rows with a line counting the
# rest, no absolute path anywhere, and the same bytes from `hprun run --markdown`, from
# `hprun report --markdown` and `--format md`, whichever folder `report` is given from.
. "$(dirname "$0")/lib.sh"

cat >"$T/plan.yaml" <<YAML
name: big
output: sessions
repeat: 250
app:
  command: [$FAKEAPP, --noise, "0", --sleep, "0"]
  timeout: 30s
profiler:
  tool: hipprof
  path: $FAKE_HIPPROF
metrics:
  - name: mean_kernel_ms
    pattern: 'mean_kernel_ms=([0-9.eE+-]+)'
    unit: ms
passes:
  - normal
  - stats
  - kernel-stack
  - memory-usage
YAML

expect_exit 0 "$HPRUN" --quiet "$T/plan.yaml" --markdown "$T/run.md"
S=$(session_dir "$T/sessions")
M="$S/report.md"
assert_eq "$(json_get "$S/summary.json" "sum(len(p['runs']) for p in d['passes'])")" 1000 "runs in summary.json"

size=$(wc -c <"$M")
[ "$size" -lt 61440 ] || fail "report.md is $size bytes, not under 60 KB"
ok "report.md of 1000 runs: $size bytes"

# Every pass's runs in a block GitHub shows collapsed; a blank line after <summary> so that the
# table inside renders.
assert_eq "$(grep -c '^<details><summary>' "$M")" 4 "<details> blocks"
assert_eq "$(grep -c '^</details>$' "$M")" 4 "</details> lines"
grep -A1 '^<details><summary>stats: 250 runs, all ok</summary>$' "$M" | tail -n 1 | grep -q '^$' \
  || fail "no blank line after the stats <summary>"
grep -q '^200 of the 1000 runs are shown' "$M" || fail "the runs line"
assert_eq "$(grep -c '^… and 200 more runs: see summary.json$' "$M")" 4 "the 'more runs' lines"
assert_eq "$(grep -c '^| [a-z-]* | [0-9]* | `[a-z-]*/[0-9]*` | 0 |' "$M")" 200 "run rows shown"

# No absolute path: not the session folder, not the test's folder, no "/" starting a path.
if grep -n -F -e "$S" -e "$T" "$M"; then fail "report.md names the session folder"; fi
if grep -n -E '(^|[ `(|])/[A-Za-z0-9._]' "$M"; then fail "report.md has an absolute path"; fi
grep -q '^| `stats/1/result_[0-9]*.kernel.csv` | hipprof-kernel-stats |$' "$M" \
  || fail "the profile's files are not relative to the session folder"
assert_eq "$(grep -c '^## Profile summary' "$M")" 0 "the writer's title under each pass"
assert_eq "$(grep -c '^## Profiler output: ' "$M")" 3 "one profile section per profiled pass"

# One renderer: `run --markdown`, `report --markdown` and `report --format md`, from the session's
# absolute folder, a relative one, and its summary.json from inside it.
cmp "$M" "$T/run.md" || fail "run --markdown differs from the session's report.md"
expect_exit 0 "$HPRUN" report "$S" --markdown "$T/report.md"
cmp "$M" "$T/report.md" || fail "report --markdown differs from the session's report.md"
expect_exit 0 "$HPRUN" report --format md "$S"
cmp "$M" "$T/out" || fail "report --format md differs from the session's report.md"
rel=sessions/$(basename "$S")
(cd "$T" && "$HPRUN" report "$rel" --markdown "$T/rel.md" >/dev/null) || fail "report $rel"
cmp "$M" "$T/rel.md" || fail "report of a relative folder differs"
(cd "$S" && "$HPRUN" report summary.json --markdown "$T/here.md" >/dev/null) || fail "report summary.json"
cmp "$M" "$T/here.md" || fail "report of ./summary.json differs"
ok "one renderer, the same bytes"
