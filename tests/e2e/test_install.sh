# `make install` and `make uninstall` into a staging folder (DESTDIR): the installed binary runs, the
# man pages render and pass the linter, the bash completion is valid and knows every option of
# every `hprun CMD --help`, and uninstall leaves no file behind. Also `hprun help CMD`.
. "$(dirname "$0")/lib.sh"

# The repository root, from this file's own path (the harness runs the tests from elsewhere).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
ROOTDIR="$T/root"
COMPLETION="$ROOTDIR/usr/share/bash-completion/completions/hprun"
COMMANDS="run check summarize report compare"

# make as the user would run it, but on the build folder under test (it is built already, so
# nothing is rebuilt) and without the jobserver and variables of a make that may have started us.
mk() {
  env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" \
    DESTDIR="$ROOTDIR" PREFIX=/usr "$@"
}

# ---- hprun help CMD is hprun CMD --help; an unknown command is a usage error.
for c in $COMMANDS; do
  expect_exit 0 "$HPRUN" help "$c"
  mv "$T/out" "$T/help-out"
  expect_exit 0 "$HPRUN" "$c" --help
  cmp -s "$T/help-out" "$T/out" || { diff "$T/help-out" "$T/out" || true; fail "hprun help $c differs from hprun $c --help"; }
  [ ! -s "$T/err" ] || fail "hprun help $c wrote to stderr"
done
ok "hprun help CMD prints hprun CMD --help for every command"
expect_exit 0 "$HPRUN" help
grep -q "^commands:" "$T/out" || fail "hprun help without a command: the list of commands"
expect_exit 2 "$HPRUN" help frobnicate
grep -qx "hprun: no command 'frobnicate' (hprun --help lists them)" "$T/err" || { cat "$T/err"; fail "hprun help of an unknown command"; }
[ ! -s "$T/out" ] || fail "hprun help of an unknown command printed to stdout"
expect_exit 2 "$HPRUN" help run check
grep -qx "hprun: help takes one command (hprun help COMMAND)" "$T/err" || { cat "$T/err"; fail "hprun help with two commands"; }
ok "hprun help of an unknown command exits 2"

# ---- install
mk install >"$T/install.log" 2>&1 || { cat "$T/install.log"; fail "make install"; }
for f in usr/bin/hprun usr/share/man/man1/hprun.1 usr/share/man/man5/hprun-plan.5 \
         usr/share/bash-completion/completions/hprun usr/share/hprun/configs/quickstart.yaml \
         usr/share/hprun/configs/examples/all-keys.yaml usr/share/hprun/configs/categories/pytorch.yaml; do
  [ -f "$ROOTDIR/$f" ] || fail "make install did not install /$f"
done
[ -x "$ROOTDIR/usr/bin/hprun" ] || fail "the installed hprun is not executable"
# Every example plan of the repository is installed, with the same bytes.
n=0
for f in "$ROOT"/configs/*.yaml "$ROOT"/configs/examples/*.yaml "$ROOT"/configs/categories/*.yaml \
  "$ROOT"/configs/demo/*.sh "$ROOT"/configs/peaks/*.yaml; do
  rel=${f#"$ROOT"/}
  cmp -s "$f" "$ROOTDIR/usr/share/hprun/$rel" || fail "$rel is not installed as it is in the repository"
  n=$((n + 1))
done
# The torch tool's launcher, where hprun looks for it (BIN/../share/hprun/).
cmp -s "$ROOT/share/hprun/hprun_torch.py" "$ROOTDIR/usr/share/hprun/hprun_torch.py" ||
  fail "the torch launcher is not installed as it is in the repository"
n=$((n + 1))
# hprun peaks --vendor's script.
cmp -s "$ROOT/scripts/gemm_peaks.py" "$ROOTDIR/usr/share/hprun/gemm_peaks.py" || fail "gemm_peaks.py is not installed"
n=$((n + 1))
[ "$(find "$ROOTDIR/usr/share/hprun" -type f | wc -l)" = "$n" ] || fail "share/hprun holds other files than the configs, the launcher and gemm_peaks.py ($n)"
ok "make install put the binary, 2 man pages, the completion and $n configs in place"

# The installed binary runs and names the summary schema.
expect_exit 0 "$ROOTDIR/usr/bin/hprun" --version
grep -qx "hprun [0-9][0-9.]* (summary schema [0-9][0-9]*)" "$T/out" || { cat "$T/out"; fail "installed hprun --version"; }
expect_exit 0 "$ROOTDIR/usr/bin/hprun" check --no-preflight "$ROOTDIR/usr/share/hprun/configs/examples/all-keys.yaml"
ok "the installed hprun runs: $(cat "$T/out" | sed "s#$ROOTDIR##")"
# A plan that names an installed peaks file beside it (roofline: {peaks: peaks/...}) checks too.
expect_exit 0 "$ROOTDIR/usr/bin/hprun" check --no-preflight "$ROOTDIR/usr/share/hprun/configs/roofline.ncu.yaml"

# ---- man pages: they render with man(1) (or mandoc), with their sections.
MAN1="$ROOTDIR/usr/share/man/man1/hprun.1"
MAN5="$ROOTDIR/usr/share/man/man5/hprun-plan.5"
render() {
  if command -v man >/dev/null 2>&1; then
    MANPAGER=cat MANWIDTH=80 man -l "$1"
  elif command -v mandoc >/dev/null 2>&1; then
    mandoc -T utf8 "$1"
  else
    fail "neither man nor mandoc is installed (make deps installs them)"
  fi
}
render "$MAN1" >"$T/hprun.1.txt" 2>"$T/man.err" || { cat "$T/man.err"; fail "man -l hprun.1"; }
for s in NAME SYNOPSIS DESCRIPTION COMMANDS ENVIRONMENT FILES "EXIT STATUS" EXAMPLES "SEE ALSO"; do
  grep -q "^$s" "$T/hprun.1.txt" || fail "hprun(1) has no section $s"
done
# Every exit status of docs/ci.md, and every variable runs see (docs/plan.md).
for code in 0 1 2 3 4 130; do
  sed -n '/^EXIT STATUS/,/^EXAMPLES/p' "$T/hprun.1.txt" | grep -q "^ *$code  " || fail "hprun(1) EXIT STATUS lacks $code"
done
for v in $(grep -o '^| `HPRUN_[A-Z_]*`' "$ROOT/docs/plan.md" | tr -d '|` '); do
  grep -q "$v" "$T/hprun.1.txt" || fail "hprun(1) does not name $v"
done
render "$MAN5" >"$T/hprun-plan.5.txt" 2>"$T/man.err" || { cat "$T/man.err"; fail "man -l hprun-plan.5"; }
grep -q "^TOOLS AND MODES" "$T/hprun-plan.5.txt" || fail "hprun-plan(5) has no TOOLS AND MODES"
ok "man -l renders hprun(1) and hprun-plan(5)"

# Every key of the loader's own key tables (`hprun --plan-keys`: key, type and default, tab-separated)
# is a row of its section's table in docs/plan.md, an item of its section of hprun-plan(5) and
# written in all-keys.yaml, each showing the key's type (plan.md) and default (all three): the one
# checker, scripts/check-plan-keys. The installed man page and example are the ones checked.
"$HPRUN" --plan-keys >"$T/keys"
[ "$(wc -l <"$T/keys")" -ge 100 ] || fail "hprun --plan-keys listed only $(wc -l <"$T/keys") keys"
cut -f1 "$T/keys" | grep -qx "passes.repeat" || fail "hprun --plan-keys lacks passes.repeat"
grep -qx "$(printf 'output\tstring\thprun-out')" "$T/keys" || { grep "^output" "$T/keys"; fail "hprun --plan-keys: output's type and default"; }
grep -qx "$(printf 'app.command\twords, not empty\t-')" "$T/keys" || { grep "^app.command" "$T/keys"; fail "hprun --plan-keys: a required key has no default"; }
grep -qx "$(printf 'passes.expect\tok, distorted\tok')" "$T/keys" || { grep "^passes.expect" "$T/keys"; fail "hprun --plan-keys: a key's choices are its type"; }
[ "$(awk -F '\t' 'NF != 3' "$T/keys" | wc -l)" = 0 ] || fail "hprun --plan-keys: a line without three fields"
ALLKEYS="$ROOTDIR/usr/share/hprun/configs/examples/all-keys.yaml"
"$PY" "$ROOT/scripts/check-plan-keys" "$T/keys" "$ROOT/docs/plan.md" "$MAN5" "$ALLKEYS" >"$T/ck.out" 2>"$T/ck.err" ||
  { cat "$T/ck.err"; fail "scripts/check-plan-keys: a key of the loader is undocumented, or documented with another type or default"; }
# The checker can fail: a key planted as missing from a copy of each place is named.
# one_complaint WHAT: the last check named exactly one key, in one message.
one_complaint() {
  [ "$(grep -c "^check-plan-keys: .*\`" "$T/err")" = 1 ] || { cat "$T/err"; fail "$1 gave other complaints"; }
}
grep -v "^\.It Ic keep_going" "$MAN5" >"$T/planted.5"
expect_exit 1 "$PY" "$ROOT/scripts/check-plan-keys" "$T/keys" "$ROOT/docs/plan.md" "$T/planted.5" "$ALLKEYS"
grep -q "planted.5: \`keep_going\` is no \`.It Ic keep_going\` item" "$T/err" || { cat "$T/err"; fail "a key removed from hprun-plan(5) is not named"; }
one_complaint "one removed key"
grep -v "^| \`precision\` |" "$ROOT/docs/plan.md" >"$T/planted.md"
expect_exit 1 "$PY" "$ROOT/scripts/check-plan-keys" "$T/keys" "$T/planted.md" "$MAN5" "$ALLKEYS"
grep -q "\`passes.precision\` is not a row" "$T/err" || { cat "$T/err"; fail "a key removed from docs/plan.md is not named"; }
sed 's/exclusive:/exclusiv:/' "$ALLKEYS" >"$T/planted.yaml"
expect_exit 1 "$PY" "$ROOT/scripts/check-plan-keys" "$T/keys" "$ROOT/docs/plan.md" "$MAN5" "$T/planted.yaml"
grep -q "\`launcher.exclusive\` is not written" "$T/err" || { cat "$T/err"; fail "a key removed from all-keys.yaml is not named"; }
# A key new to the loader, in none of them, is named three times.
{ cat "$T/keys"; printf 'passes.frobnicate\tstring\t-\n'; } >"$T/keys+1"
expect_exit 1 "$PY" "$ROOT/scripts/check-plan-keys" "$T/keys+1" "$ROOT/docs/plan.md" "$MAN5" "$ALLKEYS"
[ "$(grep -c "passes.frobnicate" "$T/err")" = 3 ] || { cat "$T/err"; fail "a new key of the loader is not named in all three"; }
# A wrong default or type planted in a copy is named with the file's line and the loader's value.
# planted WHAT PLAN_MD MAN5 YAML PATTERN: the checker, given the three files, exits 1 with exactly
# one complaint, which matches PATTERN (grep).
planted() {
  expect_exit 1 "$PY" "$ROOT/scripts/check-plan-keys" "$T/keys" "$2" "$3" "$4"
  grep -q "$5" "$T/err" || { cat "$T/err"; fail "$1 is not named"; }
  one_complaint "$1"
}
sed 's/^| `output` | string | `hprun-out` |/| `output` | string | `out` |/' "$ROOT/docs/plan.md" >"$T/default.md"
planted "a wrong default in docs/plan.md" "$T/default.md" "$MAN5" "$ALLKEYS" \
  "default.md:[0-9]*: \`output\` has the default '\`out\`' in its row; the loader's is \`hprun-out\`"
sed 's/^| `warmup` | integer 0\.\.100000 |/| `warmup` | integer 1..100000 |/' "$ROOT/docs/plan.md" >"$T/type.md"
planted "a wrong type in docs/plan.md" "$T/type.md" "$MAN5" "$ALLKEYS" \
  "type.md:[0-9]*: \`warmup\` has the type 'integer 1..100000' in its row; the loader's is 'integer 0..100000'"
# report.top's item without its `Default: 20.`, and repeat.max's saying 31.
sed '/^\.It Ic top /,/^\.El/{/^Default: 20\.$/d;}' "$MAN5" >"$T/nodefault.5"
planted "a man page item without its default" "$ROOT/docs/plan.md" "$T/nodefault.5" "$ALLKEYS" \
  "nodefault.5:[0-9]*: \`report.top\`: its item says no \`Default: 20\`"
sed 's/^Default: 30\.$/Default: 31./' "$MAN5" >"$T/default.5"
planted "a wrong default in hprun-plan(5)" "$ROOT/docs/plan.md" "$T/default.5" "$ALLKEYS" \
  "default.5:[0-9]*: \`repeat.max\`: its item says 'Default: 31.'; the loader's is \`30\`"
sed 's/^  interval: 2ms$/  interval: 5ms/' "$ALLKEYS" >"$T/default.yaml"
planted "a wrong default in all-keys.yaml" "$ROOT/docs/plan.md" "$MAN5" "$T/default.yaml" \
  "default.yaml:[0-9]*: \`sampler.interval\`: no \`interval:\` line of the \`sampler\` block shows its default \`2ms\`"
# Every tool and mode that `hprun run --help` lists is in hprun-plan(5).
"$HPRUN" run --help | sed -n '/^tools/,/^docs/p' | sed '1d;$d' | tr ', ' '\n\n' | grep . >"$T/modes"
[ "$(wc -l <"$T/modes")" -ge 20 ] || fail "found only $(wc -l <"$T/modes") tools and modes in hprun run --help"
for m in $(cat "$T/modes"); do
  grep -q "^\.\(It \)\{0,1\}Cm $m\( \|$\)" "$MAN5" || fail "hprun-plan(5) does not name the tool or mode $m"
done
ok "$(cat "$T/ck.out"); hprun-plan(5) names $(wc -l <"$T/modes") tools and modes; planted gaps fail the check"

# The linter: mandoc's, at every level, else groff's warnings. mandoc looks up cross-references
# only in the system's manual folders, where hprun(1) and hprun-plan(5) are not during this test:
# that one message, and messages about the system's manual database (they name no file of ours),
# are left out.
if command -v mandoc >/dev/null 2>&1; then
  mandoc -T lint "$MAN1" "$MAN5" >"$T/lint" 2>&1 || true
  grep -E "hprun(-plan)?\.[15]:" "$T/lint" | grep -Ev "referenced manual not found: Xr hprun(-plan)? [15]" \
    >"$T/lint.ours" || true
  [ ! -s "$T/lint.ours" ] || { cat "$T/lint.ours"; fail "mandoc -T lint"; }
  ok "mandoc -T lint: clean"
elif command -v groff >/dev/null 2>&1; then
  groff -mandoc -ww -z "$MAN1" "$MAN5" >"$T/lint" 2>&1 || true
  [ ! -s "$T/lint" ] || { cat "$T/lint"; fail "groff -mandoc -ww -z"; }
  ok "groff -mandoc -ww -z: clean"
else
  fail "neither mandoc nor groff is installed (make deps installs them)"
fi

# ---- bash completion: valid bash, completes commands, and knows every option of every --help.
command -v bash >/dev/null 2>&1 || fail "bash is needed for the completion test"
bash -n "$COMPLETION" || fail "the completion is not valid bash"
# complete WORD...: what _hprun offers for the command line WORD... (the last word is completed),
# run in an empty folder so that no file name joins in.
mkdir "$T/empty"
complete_words() {
  (cd "$T/empty" && bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _hprun
    printf "%s\n" "${COMPREPLY[@]}"' complete "$COMPLETION" "$@")
}
got=$(complete_words hprun comp)
assert_eq "$got" "compare" "hprun comp<Tab>"
got=$(complete_words hprun summarize --format "" | tr '\n' ' ')
assert_eq "$got" "text json md csv " "hprun summarize --format <Tab>"
got=$(complete_words hprun help re | tr '\n' ' ')
assert_eq "$got" "report " "hprun help re<Tab>"
# Plans for run and check, folders for report and compare.
mkdir "$T/empty/sess" && : >"$T/empty/p.yaml" && : >"$T/empty/notes.txt"
got=$(complete_words hprun check "" | sort | tr '\n' ' ')
assert_eq "$got" "p.yaml sess " "hprun check <Tab>"
got=$(complete_words hprun compare "" | tr '\n' ' ')
assert_eq "$got" "sess " "hprun compare <Tab>"
rm -r "$T/empty/sess" "$T/empty/p.yaml" "$T/empty/notes.txt"
nopts=0
for c in $COMMANDS; do
  complete_words hprun "$c" -- >"$T/offered"
  # `check --help` names no option but --help itself, which every command answers.
  for o in $("$HPRUN" "$c" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u) --help; do
    grep -qx -- "$o" "$T/offered" || fail "the completion does not offer $o after hprun $c (it is in hprun $c --help)"
    grep -q -- "$o" "$COMPLETION" || fail "$o is not in the completion file"
    nopts=$((nopts + 1))
  done
done
[ "$nopts" -ge 20 ] || fail "found only $nopts options in the commands' --help"
ok "the completion completes hprun comp to compare and offers all $nopts options of the commands' --help"

# ---- uninstall removes every file, and share/hprun with it.
mk uninstall >"$T/uninstall.log" 2>&1 || { cat "$T/uninstall.log"; fail "make uninstall"; }
left=$(find "$ROOTDIR" ! -type d)
[ -z "$left" ] || fail "make uninstall left files behind: $left"
[ ! -e "$ROOTDIR/usr/share/hprun" ] || fail "make uninstall left share/hprun behind"
ok "make uninstall left no file behind"
