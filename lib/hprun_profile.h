/* Public declarations: profile. Part of lib/hprun.h; include that instead. */
#ifndef HPRUN_PROFILE_H
#define HPRUN_PROFILE_H

#endif
