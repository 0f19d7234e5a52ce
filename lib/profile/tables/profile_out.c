/*
 * hp_profile_write: a profile summary as text (aligned tables like the article's), GitHub
 * Markdown, CSV (one table after another, each after a `# table: NAME` line) or JSON (one object,
 * the same a session embeds). docs/summarize.md documents every key and column.
 *
 * Every table is described once (profile/tables/table.h, lib/profile/tables/tables*.c) and each
 * format has one writer that renders any description: out_text.c (text and Markdown), out_csv.c,
 * out_json.c. Everything is computed from the model's tables on the fly: sorting and categories
 * cost O(k log k) in the number of distinct names, never a pass over the input again.
 */
#include "profile/tables/out.h"
#include "profile/tables/table.h"
#include "util/json/json.h"

static int write_json(const hp_profile *p, FILE *fp, const hp_profile_opts *o)
{
  hp__json j;
  int r;

  hp__json_init(&j, 1);
  j.sink = fp; /* an ncu profile's JSON is over a megabyte: written as it is made */
  r = hp__profile_json(p, &j, o);
  if (r == 0)
    r = hp__json_end(&j);
  hp__json_free(&j);
  return r;
}

int hp_profile_write(const hp_profile *p, FILE *fp, hp_format f, const hp_profile_opts *o)
{
  int r;

  if (p == NULL || fp == NULL)
    return HP_EINVAL;
  switch (f) {
  case HP_FMT_TEXT: r = hp__write_text(p, fp, 0, o); break;
  case HP_FMT_MD: r = hp__write_text(p, fp, 1, o); break;
  case HP_FMT_CSV: r = hp__write_csv(p, fp, o); break;
  case HP_FMT_JSON: r = write_json(p, fp, o); break;
  default: return HP_EINVAL;
  }
  if (r == 0 && (fflush(fp) != 0 || ferror(fp)))
    r = HP_EIO;
  return r;
}
