#!/bin/sh
# hipcc: a TEST DOUBLE for DTK's hipcc, for hprun's tests only. Never used by default.
#
# `hipcc [flags] -o OUT SOURCE...` "compiles" by writing OUT as a small shell program that starts
# the program named by HIPCC_FAKE_APP with OUT's arguments, so a plan's build can make an app
# without a compiler. It fails, as a compiler would, when a source file is missing or -o is not
# given. It compiles nothing.
out=
while [ $# -gt 0 ]; do
  case "$1" in
    -o) out=$2; shift 2 ;;
    -*) shift ;;
    *) [ -f "$1" ] || { echo "hipcc: error: no such file: $1" >&2; exit 1; }; shift ;;
  esac
done
[ -n "$out" ] || { echo "hipcc: error: no -o given" >&2; exit 1; }
[ -n "${HIPCC_FAKE_APP:-}" ] || { echo "hipcc: error: HIPCC_FAKE_APP is not set" >&2; exit 1; }
printf '#!/bin/sh\nexec "%s" "$@"\n' "$HIPCC_FAKE_APP" >"$out"
chmod +x "$out"
