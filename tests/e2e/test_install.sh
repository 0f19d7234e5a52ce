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
# hprun peaks --vendor's script.
cmp -s "$ROOT/scripts/gemm_peaks.py" "$ROOTDIR/usr/share/hprun/gemm_peaks.py" || fail "gemm_peaks.py is not installed"
n=$((n + 1))
[ "$(find "$ROOTDIR/usr/share/hprun" -type f | wc -l)" = "$n" ] || fail "share/hprun holds other files than the $n configs"
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

# Every key of docs/plan.md's key tables (rows with four cells: key, type, default, meaning) is an
# item of hprun-plan(5).
"$PY" - "$ROOT/docs/plan.md" >"$T/keys" <<'PY'
import re, sys
# Only the key tables count: those whose header row starts with "Key" (the tools' tables do not).
in_keys = False
for line in open(sys.argv[1]):
    cells = [c.strip() for c in line.replace("\\|", "").strip().strip("|").split("|")]
    if not line.startswith("|"):
        in_keys = False
    elif cells[0] == "Key":
        in_keys = True
    if in_keys and len(cells) == 4 and re.fullmatch(r"`[a-z_]+`", cells[0]):
        print(cells[0].strip("`"))
PY
[ "$(wc -l <"$T/keys")" -ge 40 ] || fail "found only $(wc -l <"$T/keys") plan keys in docs/plan.md"
for k in $(sort -u "$T/keys"); do
  grep -q "^\.It Ic $k\( \|$\)" "$MAN5" || fail "hprun-plan(5) does not describe the key $k"
done
# Every tool and mode that `hprun run --help` lists is in hprun-plan(5).
"$HPRUN" run --help | sed -n '/^tools/,/^docs/p' | sed '1d;$d' | tr ', ' '\n\n' | grep . >"$T/modes"
[ "$(wc -l <"$T/modes")" -ge 20 ] || fail "found only $(wc -l <"$T/modes") tools and modes in hprun run --help"
for m in $(cat "$T/modes"); do
  grep -q "^\.\(It \)\{0,1\}Cm $m\( \|$\)" "$MAN5" || fail "hprun-plan(5) does not name the tool or mode $m"
done
ok "hprun-plan(5) has all $(sort -u "$T/keys" | wc -l) plan keys and $(wc -l <"$T/modes") tools and modes"

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
