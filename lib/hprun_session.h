/* Public declarations: session. Part of lib/hprun.h; include that instead. */
#ifndef HPRUN_SESSION_H
#define HPRUN_SESSION_H

#endif
