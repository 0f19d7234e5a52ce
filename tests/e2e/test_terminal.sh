# The terminal as a person sees it: the quickstart in a real tmux pane (send-keys, capture-pane).
# By default the pane shows the progress, a line per finished pass and the tables, and none of the
# programs' output (valgrind's banner) nor their command lines; the output is still saved in each
# run folder. --show-output brings the output back, each line behind its [pass run] prefix.
. "$(dirname "$0")/lib.sh"

if ! command -v tmux >/dev/null 2>&1; then
  ok "tmux not installed: terminal view skipped (scripts/deps.sh installs it)"
  exit 0
fi
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SOCK="hprun-e2e-$$"
trap 'tmux -L "$SOCK" kill-server 2>/dev/null || true; rm -rf "$T"' EXIT

# pane NAME ARGS...: runs hprun with ARGS in a new 200x80 pane until it exits, then writes what the
# pane and its scrollback show into $T/NAME.
pane() {
  _name=$1; shift
  tmux -L "$SOCK" new-session -d -x 200 -y 80 -s "$_name"
  tmux -L "$SOCK" set-option -t "$_name" history-limit 5000 >/dev/null
  tmux -L "$SOCK" send-keys -t "$_name" "cd '$ROOT' && TERM=xterm $HPRUN $* ; echo HPRUN-EXIT=\$?" Enter
  _i=0
  while ! tmux -L "$SOCK" capture-pane -p -t "$_name" -S - | grep -q '^HPRUN-EXIT='; do
    _i=$((_i + 1))
    [ "$_i" -lt 600 ] || fail "$_name: hprun did not end in 120 s"
    sleep 0.2
  done
  tmux -L "$SOCK" capture-pane -p -t "$_name" -S - >"$T/$_name"
  tmux -L "$SOCK" kill-session -t "$_name"
}

pane quiet configs/quickstart.yaml --output "$T/q" --repeat 2
grep -q '^HPRUN-EXIT=0$' "$T/quiet" || fail "quickstart failed in the pane: $(cat "$T/quiet")"
if grep -q 'Callgrind, a call-graph generating cache profiler' "$T/quiet"; then
  fail "the pane shows valgrind's banner: $(cat "$T/quiet")"
fi
if grep -q '^\[callgrind' "$T/quiet"; then fail "the pane shows a program's prefixed output"; fi
if grep -q '^hprun: callgrind run 1: ' "$T/quiet"; then fail "the pane shows a command line"; fi
grep -q '^callgrind: 2 runs, median [0-9.e+-]* ms$' "$T/quiet" || fail "no line for the finished pass: $(cat "$T/quiet")"
grep -q '^=== hprun sweep quickstart ===$' "$T/quiet" || fail "no sweep overview in the pane"
grep -q '^callgrind  *command ' "$T/quiet" || fail "no table in the pane"
# The output is saved all the same.
S=$(session_dir "$T/q")
grep -q 'Callgrind' "$S/n=16384/callgrind/1/stderr.txt" || fail "valgrind's banner was not saved"
ok "quiet pane: progress, pass lines and tables; the programs' output only in the run folders"

pane loud configs/quickstart.yaml --output "$T/l" --repeat 2 -v
grep -q '^\[callgrind 1\] ==[0-9]*== Callgrind, a call-graph generating cache profiler' "$T/loud" ||
  fail "-v: no prefixed valgrind banner: $(head -40 "$T/loud")"
grep -q '^hprun: callgrind run 1: .*valgrind' "$T/loud" || fail "-v: no command line"
ok "-v: the programs' output streamed behind its prefix, and each command line"
