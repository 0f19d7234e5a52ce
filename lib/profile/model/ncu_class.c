/*
 * Which raw-page columns of ncu are measurements (hp__ncu_metric_class, profile.h): the tables show
 * the metrics that were asked for, not the device and launch attributes ncu prints with every
 * launch. Kept apart from parse_ncu.c, which reads the rows.
 */
#include "profile/model/profile.h"

#include <string.h>

/* Column prefixes of the raw page that are not measurements. ncu prints ~250 device attributes
 * and ~50 launch properties with every launch, whatever was asked: shown as metrics they bury the
 * one that was (gpu__time_duration.sum). Device properties are the same for every launch on one
 * GPU; launch properties are the same for every launch of one kernel shape (sm__maximum_* is the
 * kernel's theoretical occupancy: 100% for one, 18.75% for another on the H200). */
static const char *const device_prefixes[] = {"device__", "c2clink__", "nvlink__", "numa__",
                                              "pci__"};
static const char *const launch_prefixes[] = {"launch__", "profiler__", "sm__maximum_",
                                              "smsp__maximum_"};

int hp__ncu_metric_class(const char *name, size_t n)
{
  size_t i, k;

  for (i = 0; i < sizeof(device_prefixes) / sizeof(device_prefixes[0]); i++)
    if (n >= (k = strlen(device_prefixes[i])) && memcmp(name, device_prefixes[i], k) == 0)
      return HP__MC_DEVICE;
  for (i = 0; i < sizeof(launch_prefixes) / sizeof(launch_prefixes[0]); i++)
    if (n >= (k = strlen(launch_prefixes[i])) && memcmp(name, launch_prefixes[i], k) == 0)
      return HP__MC_LAUNCH;
  return HP__MC_METRIC;
}
