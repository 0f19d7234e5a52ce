#!/bin/sh
# A controller that sleeps: while its child sleeps, hprun wakes only for the backing-off RSS
# sampler, at most twice a second once the first 100 ms are over. Counted from the kernel's side:
# the third field of /proc/PID/schedstat is how many times hprun's main thread was put on a CPU.
# With the seed's fixed 20 ms timer this window held about 75 wakeups; the bound here is 2 per
# second plus 2 for the window's edges.
. "$(dirname "$0")/lib.sh"

[ -r /proc/self/schedstat ] || { ok "no /proc/PID/schedstat here: skipped"; exit 0; }
cat >"$T/plan.yaml" <<YAML
name: idle
output: $T/out
repeat: 1
app: {command: [sleep, "3"]}
passes: [normal]
YAML
"$HPRUN" --quiet "$T/plan.yaml" >/dev/null 2>&1 &
pid=$!
sleep 1
a=$(cut -d' ' -f3 "/proc/$pid/schedstat")
sleep 1.5
b=$(cut -d' ' -f3 "/proc/$pid/schedstat")
wait "$pid" || fail "the session failed"
n=$((b - a))
[ "$n" -le 5 ] || fail "hprun woke $n times in 1.5 s while its child slept (at most 5 expected)"
ok "hprun woke $n times in 1.5 s while its child slept"
# The sampler still saw the child: a peak RSS was recorded.
S=$(session_dir "$T/out")
rss=$(json_get "$S/summary.json" 'd["passes"][0]["runs"][0]["max_rss_kb"]')
[ "$rss" -gt 0 ] || fail "no peak RSS recorded: $rss"
ok "peak RSS recorded: $rss kB"
