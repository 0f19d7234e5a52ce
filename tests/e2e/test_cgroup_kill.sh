# The known limit of docs/reliability.md, and what closes it: a daemon that leaves its run by
# setsid() and clears its environment carries no mark hprun can find, so it survives a SIGKILL of
# hprun (which leaves no hprun to clean up). cgroup v2's cgroup.kill ends every process of a
# cgroup, escaped or not: with hprun started in a cgroup of its own, one write to that file ends
# the daemon. Skipped where cgroup v2 with cgroup.kill (Linux 5.14) is not writable here.
. "$(dirname "$0")/lib.sh"

# Whether pid $1 exists and is not a zombie.
alive() { [ -r "/proc/$1/stat" ] && [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" != Z ]; }

MNT=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
CG="$MNT/hprun-e2e-$$"
if [ -z "$MNT" ] || ! mkdir "$CG" 2>/dev/null; then
  echo "skipped: test_cgroup_kill needs a writable cgroup v2 hierarchy (none found, or not root)"
  exit 0
fi
trap 'rc=$?; [ -e "$CG/cgroup.kill" ] && echo 1 >"$CG/cgroup.kill" 2>/dev/null; sleep 0.2; rmdir "$CG" 2>/dev/null; rm -rf "$T"; [ "$rc" = 0 ] || echo "test ended with status $rc" >&2' EXIT
if [ ! -e "$CG/cgroup.kill" ]; then
  echo "skipped: test_cgroup_kill: this kernel has no cgroup.kill (Linux 5.14 or later)"
  exit 0
fi

cat >"$T/app.sh" <<SH
setsid env -i /bin/sh -c 'trap "" TERM; echo \$\$ >"$T/daemon.pid"; exec sleep 120' \
  </dev/null >/dev/null 2>&1 &
echo "m=1"
sleep 60
SH
cat >"$T/p.yaml" <<YAML
name: cg
output: sessions
repeat: 1
warmup: 0
app:
  command: sh app.sh
metrics: [m]
passes: [normal]
YAML
(cd "$T" && sh -c 'echo $$ >"$1/cgroup.procs" && exec "$2" --quiet p.yaml' sh "$CG" "$HPRUN" \
  >"$T/h.out" 2>&1) &
H=$!
i=0
while [ ! -s "$T/daemon.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -s "$T/daemon.pid" ] || fail "the daemon did not start: $(cat "$T/h.out")"
D=$(cat "$T/daemon.pid")
grep -q "^0::/hprun-e2e-$$\$" "/proc/$D/cgroup" || fail "the daemon is not in the test's cgroup"
# SIGKILL to hprun itself (by its pid, found in the cgroup by its name).
for p in $(cat "$CG/cgroup.procs"); do
  if [ "$(cat "/proc/$p/comm" 2>/dev/null)" = hprun ]; then kill -9 "$p"; fi
done
wait "$H" 2>/dev/null || true
sleep 2
# The known limit: the daemon outlived hprun.
if alive "$D"; then
  echo "note: the setsid daemon with a cleared environment survived SIGKILL of hprun (the known limit)"
else
  echo "note: the daemon did not survive here; the limit did not show"
fi
echo 1 >"$CG/cgroup.kill"
i=0
while [ -n "$(cat "$CG/cgroup.procs")" ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -z "$(cat "$CG/cgroup.procs")" ] || fail "cgroup.kill left: $(cat "$CG/cgroup.procs")"
# Killed, it may linger as a zombie until its new parent reaps it: a zombie runs nothing.
i=0
while alive "$D" && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
alive "$D" && fail "the daemon survived cgroup.kill"
ok "cgroup.kill ends what a SIGKILL of hprun leaves behind"
