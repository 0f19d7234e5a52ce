# scripts/check-layers on a planted tree (two files of one sub-folder that call each other, a lower
# sub-folder that calls a higher one, an include across sub-folders, a sub-folder without its
# README): it must fail naming the files, pass once they are fixed, and pass on the real tree.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CHECK="$ROOT/scripts/check-layers"
P="$T/tree"

# A module of the real LAYERS (util) with two sub-folders: low below high.
mkdir -p "$P/lib/util/low" "$P/lib/util/high" "$P/cmd"
printf '# util/low\nThe lower one.\nmay include: nothing\n' >"$P/lib/util/low/README.md"
printf '# util/high\nThe higher one.\nmay include: low\n' >"$P/lib/util/high/README.md"
cat >"$P/lib/util/high/ping.c" <<'C'
int pong(int n);
int ping(int n) { return n > 0 ? pong(n - 1) : 0; }
C
cat >"$P/lib/util/high/pong.c" <<'C'
int ping(int n);
int pong(int n) { return n > 0 ? ping(n - 1) : 1; }
C
cat >"$P/lib/util/high/hi.c" <<'C'
int hi(void) { return 1; }
C
cat >"$P/lib/util/low/base.c" <<'C'
int hi(void);
int base(void) { return hi() + 1; }
C

# Compiles every .c of the planted tree into $P/build, as the Makefile lays objects out.
build_tree() {
  rm -rf "$P/build"
  for c in $(cd "$P" && find lib -name '*.c'); do
    mkdir -p "$P/build/$(dirname "$c")"
    cc -c -o "$P/build/${c%.c}.o" "$P/$c"
  done
}

build_tree
expect_exit 1 sh "$CHECK" "$P" build
grep -q '^cycle of symbol uses between files' "$T/err" || { cat "$T/err"; fail "no symbol cycle reported"; }
grep -Eq '^  lib/util/high/p[io]ng\.c, lib/util/high/p[io]ng\.c$' "$T/err" ||
  { cat "$T/err"; fail "the cycle does not name ping.c and pong.c"; }
grep -q '^lib/util/low/base\.c: uses hi of lib/util/high/hi\.c: lib/util/low/ may include no sibling (its README\.md), not high/$' "$T/err" ||
  { cat "$T/err"; fail "the lower sub-folder's use of the higher one is not reported"; }
grep -q '^check-layers: FAILED' "$T/err" || { cat "$T/err"; fail "no FAILED line"; }
ok "check-layers names the files of a symbol cycle and a use against the sub-folder order"

# The circle removed: only the use against the order is left.
cat >"$P/lib/util/high/pong.c" <<'C'
int pong(int n) { return n > 0 ? n - 1 : 1; }
C
build_tree
expect_exit 1 sh "$CHECK" "$P" build
! grep -q 'cycle' "$T/err" || { cat "$T/err"; fail "a cycle reported where there is none"; }
grep -q '^lib/util/low/base\.c: uses hi of lib/util/high/hi\.c' "$T/err" || { cat "$T/err"; fail "the use against the order went unreported"; }

# The call turned the allowed way (high uses low): the tree passes, and says what it read.
cat >"$P/lib/util/low/base.c" <<'C'
int base(void) { return 1; }
C
cat >"$P/lib/util/high/hi.c" <<'C'
int base(void);
int hi(void) { return base() + 1; }
C
build_tree
expect_exit 0 sh "$CHECK" "$P" build
grep -q '^check-layers: ok (0 includes in 0 files, 2 symbol edges between 2 pairs of files, 2 sub-folders;' "$T/out" ||
  { cat "$T/out" "$T/err"; fail "the fixed tree does not pass with 2 symbol edges"; }
ok "check-layers passes the same tree with the circle removed and the call turned the allowed way"

# An include against the order fails too, naming the line's file and its target.
printf 'int hi(void);\n' >"$P/lib/util/high/hi.h"
printf '#include "../high/hi.h"\nint base(void) { return 1; }\n' >"$P/lib/util/low/base.c"
build_tree
expect_exit 1 sh "$CHECK" "$P" build
grep -q '^lib/util/low/base\.c: includes lib/util/high/hi\.h: lib/util/low/ may include no sibling' "$T/err" ||
  { cat "$T/err"; fail "the include against the order is not reported"; }
printf 'int base(void) { return 1; }\n' >"$P/lib/util/low/base.c"

# A sub-folder without a README, or without its `may include:` line, fails naming it.
mkdir -p "$P/lib/util/bare"
build_tree
expect_exit 1 sh "$CHECK" "$P" build
grep -q '^lib/util/bare/: no README.md' "$T/err" || { cat "$T/err"; fail "a sub-folder without README passed"; }
printf '# util/bare\nNothing yet.\n' >"$P/lib/util/bare/README.md"
expect_exit 1 sh "$CHECK" "$P" build
grep -q "^lib/util/bare/README.md: no 'may include:' line" "$T/err" || { cat "$T/err"; fail "a README without may include passed"; }
printf '# util/bare\nNothing yet.\nmay include: none-such\n' >"$P/lib/util/bare/README.md"
expect_exit 1 sh "$CHECK" "$P" build
grep -q "^lib/util/bare/README.md: may include 'none-such', which is no sibling sub-folder" "$T/err" ||
  { cat "$T/err"; fail "a may-include line naming no sibling passed"; }
rm -rf "$P/lib/util/bare"

# Without objects there is nothing to check: a failure that says to build first.
rm -rf "$P/build"
expect_exit 1 sh "$CHECK" "$P" build
grep -q 'no objects under build/lib' "$T/err" || { cat "$T/err"; fail "no objects went unnoticed"; }
ok "check-layers refuses a sub-folder without README or may-include line, and a tree not built"

# The real tree, with the objects of this build.
expect_exit 0 sh "$CHECK" "$ROOT" "$BUILD"
grep -q '^check-layers: ok' "$T/out" || { cat "$T/out"; fail "the real tree"; }
ok "check-layers passes the real tree: $(sed 's/^check-layers: ok //' "$T/out")"
