/*
 * The profiles of a session's profiled passes, read from the run folders, and the cross-check of
 * the profiler's kernel figures against the app's own.
 */
#include "analyze/crosscheck.h"
#include "analyze/profiles.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

#include <stdlib.h>
#include <string.h>

/* One run per pass is parsed: all runs of a pass are the same program under the same mode, and the
 * first that succeeded stands for them. A run without a folder (a summary.json read back lacks
 * nothing the reader checks, but the model allows it) has nothing to parse and is passed over. */
void hp__session_parse_profiles(hp_session *s, const hp_category_rule *cats, size_t ncats,
                                const char *region, hp_diags *diags)
{
  size_t i;

  for (i = 0; i < s->npasses; i++) {
    hp_pass_result *pr = &s->passes[i];
    const hp_run *pick;
    hp_kernel_stat ks;
    char *dir;
    if (pr->is_variant || pr->is_baseline)
      continue;
    pick = hp__pass_profiled_run(pr);
    if (pick == NULL || hp_profile_new(&pr->profile))
      continue;
    if (cats)
      hp_profile_set_categories(pr->profile, cats, ncats);
    /* ncu kept to the region itself (--nvtx-include); rocprofv3 recorded it (--marker-trace). */
    if (region && pr->tool && strcmp(pr->tool, "rocprofv3") == 0)
      hp_profile_set_region(pr->profile, region);
    /* What the run asked ncu for is what its tables show (docs/summary.md, `profile`). */
    free(pr->ncu_metrics);
    pr->ncu_metrics = NULL;
    if (pr->tool && strcmp(pr->tool, "ncu") == 0)
      hp_ncu_requested_metrics(pick->command, &pr->ncu_metrics);
    dir = hp__path_join(s->dir, pick->dir);
    if (dir)
      hp_profile_add_path(pr->profile, dir, diags);
    free(dir);
    /* The cross-check: the kernel the pass names, else the one with the most device time. */
    if (pr->kernel ? hp_profile_kernel_find(pr->profile, pr->kernel, &ks) == 0
                   : hp_profile_kernel(pr->profile, 0, &ks) == 0) {
      pr->xk_name = hp__strdup(ks.name);
      pr->xk_avg_ms = ks.avg_ns / 1e6;
      pr->xk_calls = ks.calls;
    }
  }
}
