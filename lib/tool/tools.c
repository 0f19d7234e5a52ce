/*
 * The public view of the driver table: which profiler tools hprun drives and the modes of each,
 * for help texts and other front ends (hprun.h, "Profiler tools"). The table itself stays defined
 * once, in driver.c; this file walks it with the driver's own index accessors, so a tool added
 * there appears here (and in `hprun run --help`) without another list to keep in step.
 */
#include "tool/driver.h"

size_t hp_tool_count(void)
{
  size_t n = 0;

  while (hp__driver_at(n) != NULL)
    n++;
  return n;
}

const char *hp_tool_name(size_t i)
{
  const hp__driver *d = hp__driver_at(i);

  return d ? hp__driver_name(d) : NULL;
}

const char *hp_tool_modes(const char *tool)
{
  const hp__driver *d;

  /* hp__driver_find takes NULL as the default tool; a caller asking about no tool gets none. */
  if (tool == NULL || (d = hp__driver_find(tool)) == NULL)
    return NULL;
  return hp__driver_modes(d);
}
