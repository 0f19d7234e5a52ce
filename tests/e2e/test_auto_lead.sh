#!/bin/sh
# `repeat: auto` runs the baseline ahead (docs/internals/stats.md, "Repeated looks"): a pass's
# look at n runs needs the baseline to have the fewest m >= n runs with C(m + n, n) >= 2 looks /
# alpha, or its distribution-free interval does not exist. The counts below are worked by hand:
#   min 3 (default): looks 3, 5, 8, 12, 18, 27, 30 = 7; 2 * 7 / 0.05 = 280; C(12, 3) = 220 and
#     C(13, 3) = 286, so the baseline has 10 runs when the passes have 3;
#   min 4: looks 4, 6, 9, 14, 21, 30 = 6; 240; C(10, 4) = 210, C(11, 4) = 330: 7 runs;
#   min 5: looks 5, 8, 12, 18, 27, 30 = 6; 240; C(10, 5) = 252: 5 runs, no lead.
# Clear passes (3x, and the same program again) resolve at the first look, so these are the
# session's whole counts. The baseline also runs ahead when it comes last in the plan (its look
# waits for its runs) and in the orders that move it (abba, random).
. "$(dirname "$0")/lib.sh"
cd "$T"

plan() { # plan FILE REPEAT ORDER BASELINE_LAST
  {
    echo "name: lead"
    echo "output: sessions"
    echo "repeat: $2"
    echo "order: $3"
    echo "app:"
    echo "  command: [sh, -c, 'if [ \"\$HPRUN_PASS\" = slow ]; then echo \"t=3.00\$HPRUN_RUN\"; else echo \"t=1.00\$HPRUN_RUN\"; fi']"
    echo "metrics:"
    echo "  - {name: t, pattern: 't=([0-9.]+)', unit: ms}"
    echo "passes:"
    [ "$4" = 1 ] || echo "  - normal"
    echo "  - {name: slow, command: [\"{app}\"], expect: distorted}"
    echo "  - {name: same, command: [\"{app}\"]}"
    [ "$4" = 0 ] || echo "  - normal"
  } >"$1"
}

# counts SESSION: "normal=N slow=N same=N" of counted runs, each with its stop reason.
counts() {
  "$PY" - "$1/summary.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join("%s=%d/%s" % (p["name"], len([r for r in p["runs"] if not r.get("warmup")]), p.get("stopped"))
               for p in sorted(d["passes"], key=lambda p: p["name"])))
PY
}

check() { # check REPEAT ORDER BASELINE_LAST BASE PASS
  rm -rf sessions
  plan plan.yaml "$1" "$2" "$3"
  expect_exit 0 "$HPRUN" --quiet plan.yaml
  got=$(counts "$(session_dir sessions)")
  want="normal=$4/resolved same=$5/resolved slow=$5/resolved"
  [ "$got" = "$want" ] || fail "repeat $1, order $2, baseline last $3: $got, want $want"
  ok "repeat $1, order $2, baseline last $3: $got"
}

check auto interleaved 0 10 3
check auto interleaved 1 10 3
check auto abba 0 10 3
check auto random 1 10 3
check '{min: 4, max: 30}' interleaved 0 7 4
check '{min: 5, max: 30}' interleaved 0 5 5

# A baseline with a count of its own (`repeat: 5`) makes no lead; a look waits for no runs it will
# not make. At 3 and 5 runs of the pass no interval exists against 5 (2 / C(8, 3) = 0.036 and
# 2 / C(10, 5) = 0.0079, both above 0.05 / 7 = 0.0071); at 8, C(13, 5) = 1287, it does.
rm -rf sessions
plan plan.yaml auto interleaved 0
sed 's/^  - normal$/  - {name: normal, mode: normal, repeat: 5}/' plan.yaml >own.yaml
expect_exit 0 "$HPRUN" --quiet own.yaml
got=$(counts "$(session_dir sessions)")
[ "$got" = "normal=5/max same=8/resolved slow=8/resolved" ] || fail "a baseline of 5 runs: $got"
ok "a baseline with repeat: 5: $got"

# The dry run lays out the same schedule: at the default the baseline's first three rounds hold
# 3, 3 and 4 of its runs (7 extra over 3 rounds: 2, 2, 3, each after its own run).
plan plan.yaml auto interleaved 0
expect_exit 0 "$HPRUN" --dry-run plan.yaml
"$PY" - "$T/out" <<'PY' || fail "the dry run's first rounds: $(head -n 40 "$T/out")"
import re, sys
units = re.findall(r"^\s*\d+\s+\S*/(normal|slow|same)/\d+$", open(sys.argv[1]).read(), re.M)
assert units[:16] == ["normal"] * 3 + ["slow", "same"] + ["normal"] * 3 + ["slow", "same"] + \
    ["normal"] * 4 + ["slow", "same"], units[:16]
assert units.count("normal") == 37 and units.count("slow") == 30, (units.count("normal"), units.count("slow"))
PY
ok "the dry run: the baseline's lead in its first three rounds, 37 runs at most"
