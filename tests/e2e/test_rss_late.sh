#!/bin/sh
# A peak reached in the leader's last moments is reported. The RSS sampler looks once a second,
# and RUSAGE_CHILDREN only grows when a run beats every run before it, so here the first run
# peaks higher (about 240 MB) and the second sleeps past the sampler's first looks, then touches
# about 120 MB and exits at once. Its peak comes from the rusage of its own reap.
. "$(dirname "$0")/lib.sh"

# The mark lies outside the app's folder, from where hprun would move what a run left.
mkdir "$T/app" "$T/m"
cat >"$T/app/late.py" <<'PY'
import os, sys, time
mark = sys.argv[1]
if not os.path.exists(mark):
    open(mark, "w").close()
    b = b"x" * (240 << 20)
else:
    time.sleep(1.3)
    b = b"x" * (120 << 20)
PY
cat >"$T/plan.yaml" <<YAML
name: late
output: $T/out
repeat: 2
app: {command: [$PY, $T/app/late.py, $T/m/mark]}
passes: [normal]
YAML
"$HPRUN" --quiet "$T/plan.yaml" >/dev/null 2>&1 || fail "the session failed"
S=$(session_dir "$T/out")
rss=$(json_get "$S/summary.json" 'd["passes"][0]["runs"][-1]["max_rss_kb"]')
first=$(json_get "$S/summary.json" 'd["passes"][0]["runs"][0]["max_rss_kb"]')
[ "$first" -ge 240000 ] || fail "the first run's peak is $first kB (240 MB touched)"
[ "$rss" -ge 120000 ] || fail "the last run's late peak was missed: $rss kB (120 MB touched)"
[ "$rss" -lt "$first" ] || fail "the last run's peak $rss kB is not below the first's $first kB"
ok "a late peak is reported: $rss kB (first run $first kB)"
