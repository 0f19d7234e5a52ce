/*
 * The public view of the driver table: which profiler tools hprun drives and the modes of each,
 * for help texts and other front ends (hprun.h, "Profiler tools"). The table itself stays defined
 * once, in driver.c; this file reads it only through the driver's own functions, so a tool added
 * there appears here (and in `hprun run --help`) without another list to keep in step.
 */
#include "tool/driver.h"

#include <stdio.h>
#include <string.h>

/* More than the driver table will ever hold; a longer list would be cut here, never overrun. */
#define MAX_TOOLS 16

/* The tools' names, split once out of hp__driver_tools()'s "a, b, c" text. The driver table is
 * static, so the split never goes stale; `names` point into `storage`. */
static char storage[256];
static const char *names[MAX_TOOLS];
static size_t ntools;

static void split_tools(void)
{
  char *s, *save = NULL;

  if (ntools > 0)
    return;
  snprintf(storage, sizeof(storage), "%s", hp__driver_tools());
  for (s = strtok_r(storage, ", ", &save); s && ntools < MAX_TOOLS; s = strtok_r(NULL, ", ", &save))
    /* Only names the table can find: the list and the table cannot disagree. */
    if (hp__driver_find(s) != NULL)
      names[ntools++] = s;
}

size_t hp_tool_count(void)
{
  split_tools();
  return ntools;
}

const char *hp_tool_name(size_t i)
{
  split_tools();
  return i < ntools ? names[i] : NULL;
}

const char *hp_tool_modes(const char *tool)
{
  const hp__driver *d;

  /* hp__driver_find takes NULL as the default tool; a caller asking about no tool gets none. */
  if (tool == NULL || (d = hp__driver_find(tool)) == NULL)
    return NULL;
  return hp__driver_modes(d);
}
