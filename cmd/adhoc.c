/*
 * `hprun [--tool T --mode M ...] [--metric NAME] [-r N] -- COMMAND...`: a plan made from the
 * command line (adhoc.h says what it promises). The plan is written as YAML text and loaded by the
 * same loader as a plan file, so it is checked, run and recorded exactly like one, and what
 * --print-plan shows is the very text that was loaded.
 */
#include "adhoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The name the loader gives the plan in its messages. */
#define ADHOC_FILE "(command line)"

int cmd_adhoc_option(cmd_adhoc *a, int c, const char *v)
{
  const char **list = c == CMD_OPT_ADHOC_MODE ? a->modes : a->metrics;
  size_t *n = c == CMD_OPT_ADHOC_MODE ? &a->nmodes : &a->nmetrics;

  if (c == CMD_OPT_ADHOC_PRINT) {
    a->print_plan = 1;
    return 0;
  }
  if (v == NULL)
    return -1; /* cmd_getopt has said that the value is missing */
  if (c == CMD_OPT_ADHOC_TOOL) {
    a->tool = v;
    return 0;
  }
  if (*n == CMD_ADHOC_MAX) {
    fprintf(stderr, "hprun: at most %d --%s options\n", CMD_ADHOC_MAX,
            c == CMD_OPT_ADHOC_MODE ? "mode" : "metric");
    return -1;
  }
  list[(*n)++] = v;
  return 0;
}

int cmd_adhoc_used(const cmd_adhoc *a)
{
  return a->tool || a->nmodes || a->nmetrics || a->print_plan;
}

/* Writes `s` as a YAML double-quoted scalar: `"` and `\` escaped, control characters as \xNN, so
 * that any argument (spaces, quotes, `#`, `{`) comes back from the loader byte for byte. */
static void put_quoted(FILE *fp, const char *s)
{
  fputc('"', fp);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\')
      fprintf(fp, "\\%c", *s);
    else if ((unsigned char)*s < 0x20 || *s == 0x7f)
      fprintf(fp, "\\x%02x", (unsigned char)*s);
    else
      fputc(*s, fp);
  }
  fputc('"', fp);
}

/* The session's name: the program's base name, or for an interpreter given a script (`python3
 * train.py`, `bash run.sh`) the script's, since every such session would otherwise be called
 * `python3`; without its extension. Characters a name may not hold (docs/plan.md, "name") become
 * `_`, as the loader does for a plan file's name. */
static void put_name(FILE *fp, const cmd_adhoc *a)
{
  static const char *const interpreters[] = {"python", "python3", "sh",    "bash",    "perl",
                                             "ruby",   "node",    "julia", "Rscript", NULL};
  static const char ok[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-";
  const char *word = a->argv[0], *base, *dot;
  size_t i, len;

  base = strrchr(word, '/') ? strrchr(word, '/') + 1 : word;
  for (i = 0; interpreters[i] && a->argc > 1 && a->argv[1][0] != '-'; i++)
    if (strcmp(base, interpreters[i]) == 0) {
      word = a->argv[1];
      base = strrchr(word, '/') ? strrchr(word, '/') + 1 : word;
      break;
    }
  dot = strrchr(base, '.');
  len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
  if (len == 0 || strcmp(base, ".") == 0 || strcmp(base, "..") == 0) {
    fputs("command", fp);
    return;
  }
  for (i = 0; i < len; i++)
    fputc(strchr(ok, base[i]) ? base[i] : '_', fp);
}

static void write_plan(FILE *fp, const cmd_adhoc *a, int repeat)
{
  size_t i;

  fprintf(fp,
          "# Made by hprun from its command line; `hprun --print-plan ... -- COMMAND` writes\n"
          "# it. Keep it and edit it: docs/plan.md has every key.\nname: ");
  put_name(fp, a);
  fprintf(fp, "\nrepeat: %d\napp:\n  command: [", repeat);
  for (i = 0; i < a->argc; i++) {
    fputs(i ? ", " : "", fp);
    put_quoted(fp, a->argv[i]);
  }
  fputs("]\n", fp);
  if (a->nmetrics) {
    /* A bare name is the metric shorthand: the program prints NAME=VALUE (docs/plan.md). */
    fputs("metrics:\n", fp);
    for (i = 0; i < a->nmetrics; i++) {
      fputs("  - ", fp);
      put_quoted(fp, a->metrics[i]);
      fputc('\n', fp);
    }
  }
  if (a->tool) {
    fputs("profiler:\n  tool: ", fp);
    put_quoted(fp, a->tool);
    fputc('\n', fp);
  }
  /* A mode given as a plain string is a pass of that mode with the same name. */
  fputs("passes:\n  - normal\n", fp);
  for (i = 0; i < a->nmodes; i++) {
    fputs("  - ", fp);
    put_quoted(fp, a->modes[i]);
    fputc('\n', fp);
  }
}

/* The plan as YAML into *text (the caller frees it), of *len bytes. Returns CMD_GO_ON, or an exit
 * status after saying why. */
static int adhoc_text(const cmd_adhoc *a, int repeat, char **text, size_t *len)
{
  FILE *fp;

  *text = NULL;
  *len = 0;
  if (a->argc == 0) {
    fprintf(stderr, "hprun: no command after `--` (hprun -- python3 train.py)\n");
    return HP_EXIT_USAGE;
  }
  if (a->tool && a->nmodes == 0) {
    fprintf(stderr, "hprun: --tool %s needs at least one --mode (hprun run --help lists them)\n",
            a->tool);
    return HP_EXIT_USAGE;
  }
  if ((fp = open_memstream(text, len)) == NULL) {
    perror("hprun");
    return HP_EXIT_IO;
  }
  write_plan(fp, a, repeat > 0 ? repeat : CMD_ADHOC_REPEAT);
  if (fclose(fp) != 0) {
    perror("hprun");
    free(*text);
    *text = NULL;
    return HP_EXIT_IO;
  }
  return CMD_GO_ON;
}

int cmd_adhoc_load(const cmd_adhoc *a, int repeat, hp_plan **plan, hp_diags *diags)
{
  char *text = NULL;
  size_t len = 0;
  int code, r;

  *plan = NULL;
  if ((code = adhoc_text(a, repeat, &text, &len)) != CMD_GO_ON)
    return code;
  if (a->print_plan) {
    fwrite(text, 1, len, stdout);
    free(text);
    return HP_EXIT_OK;
  }
  /* The plan's folder is the current one: relative paths of the command, and the session's
   * `hprun-out`, are where a shell started here would find and put them. */
  r = hp_plan_load_string(ADHOC_FILE, ".", text, len, plan, diags);
  free(text);
  if (r) {
    hp_diags_print(diags, stderr);
    if (diags->count == 0)
      fprintf(stderr, "hprun: %s\n", hp_strerror(r));
    else
      fprintf(stderr, "hprun: `hprun --print-plan ...` shows the plan these lines refer to\n");
    return HP_EXIT_USAGE;
  }
  return CMD_GO_ON;
}
