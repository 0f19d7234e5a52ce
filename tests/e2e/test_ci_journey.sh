# The CI journey of docs/ci.md, end to end: a toy app's git repository with three commits (main;
# a commit whose code makes the step 8% slower; an unchanged commit) goes through the documented
# jobs of configs/examples/ci/github-actions.yml and gitlab-ci.yml, each command read from those
# files and run as written (tests/e2e/ci_jobs.py): build hprun and the app, preflight the plan,
# run it, keep main's session, fetch it in the pull request's job, compare, write JUnit and the
# Markdown comment. The slow commit's job exits 1 with a `fail:` line naming the metric; the
# unchanged one exits 0. The commands that talk to a CI server or the network (cloning hprun,
# fetching main's artifact, posting the comment) cannot run here: each is matched exactly below
# and replaced by what it would do, so any other command in the files runs verbatim.
. "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CI="$ROOT/configs/examples/ci"
"$PY" -c "import yaml" 2>/dev/null || fail "python3 with PyYAML is needed to read the CI files"

# The toy repository: the plan of the CI example, the toy app and its Makefile.
git init -q -b main "$T/toy"
cp "$ROOT/tests/e2e/ci-toy/app.c" "$ROOT/tests/e2e/ci-toy/Makefile" "$CI/hprun.yaml" "$T/toy/"
g() { git -C "$T/toy" -c user.name=ci -c user.email=ci@example.invalid "$@"; }
g add -A && g commit -qm main
MAIN=$(g rev-parse HEAD)
g checkout -q -b slow
sed -i "s/^#define STEP_US 20000L$/#define STEP_US 21600L/" "$T/toy/app.c"
grep -q "^#define STEP_US 21600L$" "$T/toy/app.c" || fail "the slow commit did not change STEP_US"
g commit -qam "an 8% longer step"
SLOW=$(g rev-parse HEAD)
g checkout -q -b same "$MAIN"
echo "The toy app of the CI journey." >"$T/toy/README"
g add README && g commit -qm "a README, the code unchanged"
SAME=$(g rev-parse HEAD)

# hprun as the jobs' checkout of it would be: a folder whose `make` builds nothing (this build is
# the one under test) and whose build/hprun is it.
mkdir -p "$T/hprun-src/build"
printf 'all:\n\t@:\n' >"$T/hprun-src/Makefile"
ln -s "$HPRUN" "$T/hprun-src/build/hprun"

# job SYSTEM ROLE COMMIT WS: runs the job's commands in a fresh clone WS of COMMIT; the job's exit
# status (that of its first failing command, as the CI systems report it) is in $WS.rc and the
# output of its commands in $WS.log.
job() {
  sys=$1 role=$2 commit=$3 ws=$4
  file="$CI/github-actions.yml"; [ "$sys" = gitlab ] && file="$CI/gitlab-ci.yml"
  git clone -q "$T/toy" "$ws" && git -C "$ws" checkout -q "$commit"
  if [ "$sys" = github ]; then
    cp -r "$T/hprun-src" "$ws/.hprun" # actions/checkout of hprun
    # actions/cache/restore of main's session, in a pull request's job
    [ "$role" = main ] || cp -r "$T/artifact-$sys/main-session" "$ws/"
  fi
  "$PY" "$ROOT/tests/e2e/ci_jobs.py" "$sys" "$role" "$file" >"$ws.cmds"
  rc=0
  : >"$ws.log"
  while IFS="$(printf '\t')" read -r phase cmd; do
    [ "$rc" = 0 ] || [ "$phase" = always ] || continue
    case "$cmd" in
      "git clone --depth 1 https://github.com/your-org/hprun.git .hprun")
        cp -r "$T/hprun-src" "$ws/.hprun"; continue ;;
      'curl --fail --location --output main.zip '*'/jobs/artifacts/$CI_DEFAULT_BRANCH/download?job=perf-main"')
        (cd "$T/artifact-$sys" && zip -qr "$ws/main.zip" main-session); continue ;;
      'gh pr comment ${{ github.event.pull_request.number }} --body-file compare.md' | \
      'curl --fail --request POST '*'"body@compare.md" '*'/merge_requests/$CI_MERGE_REQUEST_IID/notes"')
        cp "$ws/compare.md" "$ws.comment"; continue ;;
    esac
    echo "\$ $cmd" >>"$ws.log"
    set +e
    (cd "$ws" && HPRUN="$ws/.hprun/build/hprun" sh -c "$cmd") >>"$ws.log" 2>&1
    got=$?
    set -e
    [ "$rc" != 0 ] || rc=$got
  done <"$ws.cmds"
  echo "$rc" >"$ws.rc"
}

for sys in github gitlab; do
  # main: the plan runs, and its session is kept (the cache entry, the job's artifact).
  job "$sys" main "$MAIN" "$T/$sys-main"
  [ "$(cat "$T/$sys-main.rc")" = 0 ] || { cat "$T/$sys-main.log"; fail "$sys: main's job exited $(cat "$T/$sys-main.rc")"; }
  grep -qx '$ $HPRUN check hprun.yaml' "$T/$sys-main.log" || fail "$sys: no preflight"
  grep -q "^hprun.yaml: ok (1 passes" "$T/$sys-main.log" || { cat "$T/$sys-main.log"; fail "$sys: the preflight"; }
  [ -f "$T/$sys-main/main-session/summary.json" ] || fail "$sys: main's session was not kept"
  mkdir "$T/artifact-$sys"
  cp -r "$T/$sys-main/main-session" "$T/artifact-$sys/"
  # The slow commit fails its job with the metric named; the unchanged one passes.
  job "$sys" pr "$SLOW" "$T/$sys-slow"
  ws="$T/$sys-slow"
  [ "$(cat "$ws.rc")" = 1 ] || { cat "$ws.log"; fail "$sys: the slow commit's job exited $(cat "$ws.rc"), not 1"; }
  grep -q '^- fail: normal: step_ms +[0-9.]*%, tolerance 3% (command line), 95% CI \[+[0-9.]*%, +[0-9.]*%\]: regression$' "$ws.log" \
    || { cat "$ws.log"; fail "$sys: no fail: line naming step_ms"; }
  grep -q '<failure type="regression" message="step_ms +' "$ws/compare-junit.xml" || fail "$sys: JUnit of the compare"
  grep -q '| normal | step_ms | .* | \*\*regression\*\* |$' "$ws.comment" || { cat "$ws.comment"; fail "$sys: the comment"; }
  [ -f "$ws/hprun-junit.xml" ] && [ -f "$ws/hprun.md" ] || fail "$sys: the run's JUnit and Markdown"
  job "$sys" pr "$SAME" "$T/$sys-same"
  ws="$T/$sys-same"
  [ "$(cat "$ws.rc")" = 0 ] || { cat "$ws.log"; fail "$sys: the unchanged commit's job exited $(cat "$ws.rc"), not 0"; }
  grep -q '^0 regression(s)' "$ws.comment" || { cat "$ws.comment"; fail "$sys: the unchanged commit's comment"; }
  grep -q 'failures="0"' "$ws/compare-junit.xml" || fail "$sys: the unchanged commit's JUnit"
  # Every command of the files ran or was one of the replaced server commands listed in job().
  n=$(cat "$T/$sys-main.cmds" "$T/$sys-slow.cmds" | wc -l)
  ran=$(grep -c '^\$ ' "$T/$sys-main.log" "$T/$sys-slow.log" | awk -F: '{s += $2} END {print s}')
  want=1; [ "$sys" = gitlab ] && want=4 # the comment; or two clones, the download, the note
  [ "$ran" = $((n - want)) ] || fail "$sys: $ran of $n commands ran, not all but the $want replaced"
  ok "$sys: main 0, the 8% slower commit 1, the unchanged one 0 ($ran of $n commands run as written)"
  grep '^- fail: normal: step_ms' "$T/$sys-slow.log"
done

# docs/ci.md shows these files, each verbatim under its <!-- file: PATH --> line.
"$PY" - "$ROOT" <<'PY' || fail "docs/ci.md does not show the tested files as they are"
import re, sys
root = sys.argv[1]
doc = open(root + "/docs/ci.md", encoding="utf-8").read()
shown = dict(re.findall(r"<!-- file: (\S+) -->\n```yaml\n(.*?)```\n", doc, re.S))
want = ["configs/examples/ci/hprun.yaml", "configs/examples/ci/github-actions.yml",
        "configs/examples/ci/gitlab-ci.yml"]
for path in want:
    if shown.get(path) != open(root + "/" + path, encoding="utf-8").read():
        sys.exit("docs/ci.md: the block of %s differs from the file (or is missing)" % path)
PY
ok "docs/ci.md shows configs/examples/ci/ as tested"
