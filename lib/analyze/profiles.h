/*
 * The profiles of a session's profiled passes and the cross-check against the app's own figures
 * (lib/analyze/profiles.c). The profiles become the session's (freed with it); `cats` stays the
 * caller's.
 */
#ifndef HPRUN_ANALYZE_PROFILES_H
#define HPRUN_ANALYZE_PROFILES_H

#include "hprun.h"

/* Parses what the profiler wrote in one counted run of each profiled pass (the first that
 * succeeded) into pass->profile, and fills the cross-check fields. `region` (app.region, may be
 * NULL) keeps a rocprofv3 pass's kernel tables to that roctx range (hp_profile_set_region). */
void hp__session_parse_profiles(hp_session *s, const hp_category_rule *cats, size_t ncats,
                                const char *region, hp_diags *diags);

#endif /* HPRUN_ANALYZE_PROFILES_H */
