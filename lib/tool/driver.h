/*
 * The one table of profiler tools (lib/tool/driver.c): each tool's name, its modes with a line
 * of documentation each, and how a pass of that mode becomes a command line. Plan validation,
 * the dry run and the session read every tool fact from here. The table is static; nothing
 * returned by these functions is owned by the caller except the argv hp__driver_argv builds.
 */
#ifndef HPRUN_TOOL_DRIVER_H
#define HPRUN_TOOL_DRIVER_H

#include "hprun.h"

typedef struct hp__driver hp__driver;

/* The pass keys that only some tools and modes can apply. */
typedef enum hp__pass_key {
  HP__PASS_KERNEL,       /* `kernel:`, a kernel filter */
  HP__PASS_COUNTERS,     /* `counters:`, a list of counters or metrics */
  HP__PASS_LAUNCH_COUNT, /* `launch_count:`, ncu's --launch-count */
  HP__PASS_SCHEDULE,     /* `schedule:`, torch.profiler's wait/warmup/active */
  HP__PASS_KEY_N
} hp__pass_key;

/* The tool a plan profiles with when it names none (profiler.tool). */
#define HP__DEFAULT_TOOL "hipprof"

/* Options that only some versions of a tool have, used when its own help text lists them
 * (tests/fixtures/real/hipprof/dtk-26.04-help/ is DTK 26.04's). */
#define HP__CAP_OUTPUT 1u      /* hipprof `-o <output file>`: its files go into the run folder */
#define HP__CAP_DATA_DIR 2u    /* hipprof `-d <data directory>`: its temporary data too */
#define HP__CAP_FOLLOW_FORK 4u /* hipprof `--follow-fork`: it follows the app's children */

/* Everything a driver needs to build one run's command line. Nothing here is owned. */
typedef struct hp__run_spec {
  const hp_plan *plan;
  const hp_pass *pass;
  const char *tool_path; /* the profiler's resolved path */
  const char *run_dir;   /* the run's own folder (absolute) */
  const hp_strv *app;    /* the app's argv, resolved */
  unsigned caps;         /* the HP__CAP_* options to use */
} hp__run_spec;

/* Finds a driver by tool name: hipprof, rocprof, rocprofv3, ncu, nsys, torch (NULL:
 * HP__DEFAULT_TOOL). NULL when unknown. */
const hp__driver *hp__driver_find(const char *tool);
/* The i-th driver of the table (0-based, in the order hp__driver_tools lists them), NULL past the
 * last: for listing every tool, for example to suggest one in place of a typo. */
const hp__driver *hp__driver_at(size_t i);
/* 1 if `mode` is valid for this driver (the generic modes normal and command are valid for all). */
int hp__driver_has_mode(const hp__driver *d, const char *mode);
/* A comma-separated list of the driver's modes, the generic ones first, for messages. Static
 * storage. */
const char *hp__driver_modes(const hp__driver *d);
/* The i-th of the modes hp__driver_modes lists (0-based), NULL past the last. */
const char *hp__driver_mode_at(const hp__driver *d, size_t i);
/* A comma-separated list of known tools, for messages. Static storage. */
const char *hp__driver_tools(void);
/* 1 for the modes every tool has: normal (no profiler) and command (an argv template). */
int hp__mode_is_generic(const char *mode);
const char *hp__driver_name(const hp__driver *d);
/* 1 when a pass of `mode` (one of d's own modes) hands `key` to the tool, 0 when the tool's
 * command line would drop it (the plan refuses it then; docs/plan.md has the table). */
int hp__driver_takes(const hp__driver *d, const char *mode, hp__pass_key key);
/* The file name of the launcher script hprun ships for this tool (share/hprun/, found beside the
 * hprun binary: docs/drivers.md), or NULL for a tool that is a program on PATH. */
const char *hp__driver_script(const hp__driver *d);
/* 1 when the driver reads its tool's help text (`-h`) for HP__CAP_* options: hipprof. */
int hp__driver_reads_help(const hp__driver *d);
/* The HP__CAP_* options that a help text lists, each as an option line of its own ("  -o <...",
 * "  --follow-fork ..."); 0 for NULL. */
unsigned hp__driver_help_caps(const char *help);
/* One line describing a mode, or NULL. */
const char *hp__driver_mode_doc(const hp__driver *d, const char *mode);
/* Builds the whole argv of one run of a profiled pass into *out (new; free with hp_strv_free).
 * Some drivers also write an input file into rs->run_dir: when that fails, hp__write_file's code
 * (util/sys/fsutil.h: its kind, and why). HP_ENOTSUP for an unknown mode. */
int hp__driver_argv(const hp__driver *d, const hp__run_spec *rs, hp_strv *out);
/* The command a run of a profiled pass is followed by, outside its timing (nsys: `nsys stats`
 * turning its report into CSVs), into *out (new; free with hp_strv_free); empty for a tool that
 * needs none. 0 or HP_ENOMEM. */
int hp__driver_after_argv(const hp__driver *d, const hp__run_spec *rs, hp_strv *out);

#endif /* HPRUN_TOOL_DRIVER_H */
