/*
 * The plan a stored session ran (lib/report/json/plan_copy.c), read back from the session folder for
 * `hprun report` and `hprun compare`: its copy (plan.yaml) gives the kernel categories the
 * profiles were summarised with, and its SHA-256 (from manifest.json, else the copy's bytes) tells
 * whether two sessions ran the same plan. The plan handed back is the caller's (hp_plan_free); the
 * hash is stored into the session, which owns it.
 */
#ifndef HPRUN_REPORT_PLAN_COPY_H
#define HPRUN_REPORT_PLAN_COPY_H

#include "hprun.h"

/* Loads s->dir/plan.yaml into *plan. When it is missing or no longer loads, *plan is NULL and one
 * warning in diags says so and what is used instead (the built-in kernel categories; everything
 * else comes from summary.json either way). Sets s->plan_sha256 when manifest.json or plan.yaml
 * gives it. Returns 0 (a missing plan is no error) or HP_ENOMEM. */
int hp__session_plan_copy(hp_session *s, hp_plan **plan, hp_diags *diags);

#endif /* HPRUN_REPORT_PLAN_COPY_H */
