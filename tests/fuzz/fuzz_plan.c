/*
 * fuzz_plan: the YAML plan loader (hp_plan_load_string) and the categories-file loader
 * (hp_categories_load) on arbitrary bytes.
 *
 * Both parse untrusted text that users write by hand, so every input must end in a plan or in
 * diagnostics, never in a crash, a leak or a hang. The diagnostics are printed (to /dev/null) so
 * that their formatting runs too, and a loaded plan's categories are handed to a profile, the way
 * a session uses them. Only the public API (hprun.h) is used.
 */
#include "hprun.h"
#include "scratch.h"

#include <stdlib.h>

static char *categories_path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
  (void)argc;
  (void)argv;
  categories_path = fz_path("categories.yaml");
  return 0;
}

/* A plan from memory: `text` is not NUL-terminated, so any read past `len` is an ASan report. */
static void load_plan(const uint8_t *data, size_t size)
{
  hp_diags d;
  hp_plan *plan = NULL;
  hp_profile *p = NULL;

  hp_diags_init(&d);
  if (hp_plan_load_string("fuzz.yaml", "/nonexistent", (const char *)data, size, &plan, &d) == 0 &&
      plan->ncategories && hp_profile_new(&p) == 0) {
    hp_profile_set_categories(p, plan->categories, plan->ncategories);
    hp_profile_free(p);
  }
  hp_diags_print(&d, fz_null());
  hp_plan_free(plan);
  hp_diags_free(&d);
}

/* The same bytes as a categories file, which shares the plan's `categories:` parser but starts
 * from a file and a different top-level check. */
static void load_categories(const uint8_t *data, size_t size)
{
  hp_diags d;
  hp_category_rule *rules = NULL;
  size_t n = 0;

  hp_diags_init(&d);
  d.limit = 20; /* small, so that the note about dropped messages runs too */
  fz_write(categories_path, data, size);
  hp_categories_load(categories_path, &rules, &n, &d);
  hp_diags_print(&d, fz_null());
  hp_categories_free(rules, n);
  hp_diags_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  load_plan(data, size);
  load_categories(data, size);
  return 0;
}
