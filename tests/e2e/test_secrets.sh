# Secrets are redacted by value as well as by name (docs/summary.md, "Secrets"): each well-known
# token shape, and a URL's password, planted in an argument, in app.env (under an innocent name)
# and in hprun's own environment, appears in no file of the session and nowhere in the terminal
# output; the value of an app.env entry whose name says it is secret is not in the plan copy.
. "$(dirname "$0")/lib.sh"

# Built from parts, so that this file itself holds no whole token for a scanner to flag.
G="ghp""_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"
GP="github""_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz"
GL="glpat""-xY12abCD34efGH56ijKL"
XB="xoxb""-123456789012-abcdefghijkl"
XP="xoxp""-123456789012-mnopqrstuvwx"
AK="AKIA""IOSFODNN7EXAMPLE"
JW="eyJ""hbGciOiJIUzI1NiJ9.eyJ""zdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
PW="hunter2pw"
URL="postgres://dbuser:$PW@db.example/app"
PLAIN_SECRET="s3cr3t-by-name-only"
ALL="$G $GP $GL $XB $XP $AK $JW $PW $PLAIN_SECRET"

cat >"$T/app.sh" <<'SH'
echo "m=1"
SH
cat >"$T/p.yaml" <<YAML
name: secrets
output: sessions
repeat: 1
warmup: 0
app:
  command: [sh, app.sh, "--token=$G", "$GP", "$GL", "$XB", "$XP", "$AK", "$JW", "$URL"]
  env:
    INNOCENT_A: "$G"
    INNOCENT_B: "$URL"
    INNOCENT_C: "$JW"
    API_PASSWORD: "$PLAIN_SECRET"
metrics: [m]
passes: [normal]
YAML
(cd "$T" && HIP_DB_URL="$URL" HIP_GH="$G" CUDA_AWS="$AK" expect_exit 0 "$HPRUN" "p.yaml")
S=$(ls -d "$T"/sessions/secrets-2*)
for v in $ALL; do
  if grep -rlF -- "$v" "$S" "$T/out" "$T/err" >"$T/leaks"; then
    fail "'$v' leaked into: $(cat "$T/leaks")"
  fi
done
grep -q "<redacted>" "$S/plan.yaml" || fail "the plan copy shows no redaction"
grep -q "postgres://dbuser:<redacted>@db.example/app" "$S/manifest.json" ||
  fail "the URL's user and host are not kept: $(grep -n postgres "$S/manifest.json")"
grep -q "API_PASSWORD: \"<redacted>\"" "$S/plan.yaml" || fail "plan copy env: $(grep -n API "$S/plan.yaml")"
# The redacted copy still loads: report uses it without a warning about it.
expect_exit 0 "$HPRUN" report "$S"
grep -q "plan copy" "$T/err" && fail "the redacted plan copy does not load: $(cat "$T/err")"
for v in $ALL; do grep -qF -- "$v" "$T/out" "$T/err" && fail "report printed '$v'"; done
# The dry run prints the commands too.
(cd "$T" && expect_exit 0 "$HPRUN" --dry-run "p.yaml")
for v in $ALL; do grep -qF -- "$v" "$T/out" "$T/err" && fail "the dry run printed '$v'"; done
ok "token shapes and URL passwords are redacted in every file and in the terminal"
