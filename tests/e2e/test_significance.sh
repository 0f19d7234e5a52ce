# The statistics issue's acceptance test: the stand-in hipprof injects the article's 1.27% overhead
# over an app with about 0.5% run-to-run noise (seeded per round through HPRUN_ROUND). With 12
# repeats hprun calls it significant and `perturbed`; with 2 it does not (too few runs to tell);
# with 0% injected it is never flagged beyond warn, in three sessions with different seeds: `ok`
# when the interval fits inside warn (0.5%, as tight as the noise), else `inconclusive`.
. "$(dirname "$0")/lib.sh"

plan() { # NAME REPEAT SEED
  cat >"$T/$1.yaml" <<YAML
name: $1
output: sessions
repeat: $2
app:
  command: [sh, -c, 'exec "\$0" --base 1.0 --noise 0.005 --sleep 1 --seed \$(( $3 * 1000 + HPRUN_ROUND ))', $FAKEAPP]
profiler: {path: $FAKE_HIPPROF}
metrics: [mean_kernel_ms]
passes: [normal, stats]
thresholds: {warn: 0.005}
YAML
}
flag() { pass_get "$(ls -d "$T"/sessions/$1-latest)/summary.json" stats "$2"; }

plan many 12 1
expect_exit 0 "$HPRUN" --quiet "$T/many.yaml"
assert_eq "$(flag many "p['overhead']['significant']")" yes "1.27% with 12 runs: significant"
assert_eq "$(flag many "p['flag']")" perturbed "1.27% with 12 runs: flag"
assert_close "$(flag many "p['overhead']['ratio']")" 1.0127 0.006 "ratio near the injected factor"

plan two 2 1
expect_exit 0 "$HPRUN" --quiet "$T/two.yaml"
assert_eq "$(flag two "p['overhead']['significant']")" unknown "2 runs: cannot tell"
[ "$(flag two "p['flag']")" != perturbed ] || fail "2 runs must not be flagged perturbed"

for seed in 2 3 4; do
  plan zero$seed 12 "$seed"
  HIPPROF_FAKE_FACTORS="stats=1.0" expect_exit 0 "$HPRUN" --quiet "$T/zero$seed.yaml"
  case "$(flag zero$seed "p['flag']")" in
  ok | inconclusive) ;;
  *) fail "0% injected, seed $seed: flag $(flag zero$seed "p['flag']")" ;;
  esac
  [ "$(flag zero$seed "p['overhead']['significant']")" != yes ] || fail "0% injected, seed $seed: significant"
done
ok "significance"
