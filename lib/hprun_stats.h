/* Public declarations: stats. Part of lib/hprun.h; include that instead. */
#ifndef HPRUN_STATS_H
#define HPRUN_STATS_H

#endif
