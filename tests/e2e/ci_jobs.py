"""The commands of one CI job, from the example CI files of configs/examples/ci/, one per line:
PHASE<TAB>COMMAND, PHASE being `run` (stops at the first failure) or `always` (runs even after a
failure: GitHub's if: always(), GitLab's after_script). tests/e2e/test_ci_journey.sh runs them.

usage: ci_jobs.py github|gitlab main|pr FILE
"""
import sys

import yaml


def github(doc, role):
    for step in doc["jobs"]["perf"]["steps"]:
        if "run" not in step:
            continue
        cond = step.get("if", "")
        if "refs/heads/main" in cond and role != "main":
            continue
        if "pull_request" in cond and role != "pr":
            continue
        yield ("always" if "always()" in cond else "run"), step["run"]


def gitlab(doc, role):
    job = doc["perf-main" if role == "main" else "perf-mr"]
    base = doc[job["extends"]] if "extends" in job else {}
    for key, phase in (("before_script", "run"), ("script", "run"), ("after_script", "always")):
        for cmd in job.get(key, base.get(key, [])):
            yield phase, cmd


def main():
    system, role, path = sys.argv[1:4]
    with open(path, encoding="utf-8") as f:
        doc = yaml.safe_load(f)
    for phase, cmd in (github if system == "github" else gitlab)(doc, role):
        if "\n" in cmd.strip():
            sys.exit("%s: a multi-line command: %r" % (path, cmd))
        print("%s\t%s" % (phase, cmd.strip()))


main()
