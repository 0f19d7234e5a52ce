/*
 * The columns of a per-dispatch table (lib/profile/parse/parse_dispatch.c) that describe a dispatch
 * rather than count something: ids, queues, process and thread, signal and object handles, grid
 * and workgroup sizes as rocprofv2 and rocprof-compute spell them. Every other named column that
 * no table reads as a resource or a time is a counter. A list of its own, apart from the parser,
 * because it grows with every tool's spelling while the parser does not.
 */
#include "profile/parse/dispatch_cols.h"
#include "util/num/num.h"

#include <string.h>
#include <strings.h>

/* Columns that describe a dispatch rather than count something. Everything else with a name is a
 * counter. */
static const char *const not_counters[] = {"gpu-id",
                                           "queue-id",
                                           "queue-index",
                                           "pid",
                                           "tid",
                                           "sig",
                                           "obj",
                                           "DispatchNs",
                                           "CompleteNs",
                                           "GPU_ID",
                                           "Queue_ID",
                                           "PID",
                                           "TID",
                                           "Correlation_ID",
                                           "Process_Id",
                                           "Thread_Id",
                                           "Agent_Id",
                                           "Node_Id",
                                           "Kernel_Id",
                                           "Stream_Id",
                                           "Private_Segment_Size",
                                           "Group_Segment_Size",
                                           "Workgroup_Size_X",
                                           "Workgroup_Size_Y",
                                           "Workgroup_Size_Z",
                                           "Grid_Size_X",
                                           "Grid_Size_Y",
                                           "Grid_Size_Z",
                                           "Kind",
                                           "Guid",
                                           "Dispatch_Id",
                                           "Accum_VGPR",
                                           "Arch_VGPR",
                                           "SGPR"};

int hp__dispatch_not_counter(const char *s, size_t n)
{
  size_t i;

  hp__trim(&s, &n);
  if (n == 0)
    return 1;
  for (i = 0; i < sizeof(not_counters) / sizeof(not_counters[0]); i++)
    if (strlen(not_counters[i]) == n && strncasecmp(s, not_counters[i], n) == 0)
      return 1;
  return 0;
}
