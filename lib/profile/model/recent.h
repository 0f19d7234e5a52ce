/*
 * A bounded set of recently seen keys (lib/profile/model/recent.c): launch groups, dispatch ids.
 * Rows of one launch or one dispatch sit close together in every profiler's output, so a key
 * untouched for `window` rows is finished: it is handed to `fin` and forgotten. This keeps memory
 * constant for any file size and is exact as long as a group's rows are less than `window` rows
 * apart (docs/internals/profile.md).
 *
 * The window owns its keys and each entry's `s` string (it frees them after `fin` has seen them);
 * the callback's `ud` stays the caller's. hp__recent_finish releases everything, also after a
 * failed touch or tick, and may be called on a window that was only initialised.
 */
#ifndef HPRUN_PROFILE_RECENT_H
#define HPRUN_PROFILE_RECENT_H

#include <stddef.h>
#include <stdint.h>

typedef struct hp__recent_ent {
  uint64_t h;   /* 0 = empty slot */
  uint32_t kid; /* the kernel the key belongs to */
  uint32_t klen;
  char *key;             /* owned */
  long long first, last; /* row numbers */
  long long a;           /* payload: stacks keep the best frame's stack_sq here */
  char *s;               /* payload: an owned string (stacks: the best user frame) */
  int flag;              /* payload: e.g. "this launch already has a duration" */
  uint32_t next;         /* on the free list: the next free entry (index + 1; 0 = none) */
  char kbuf[20];         /* short keys live here (key points at it), sparing a malloc per key */
} hp__recent_ent;

typedef void (*hp__recent_fin)(void *ud, hp__recent_ent *e);

typedef struct hp__recent {
  hp__recent_ent *tab; /* the entries (a slab: indices stay, pointers move when it grows) */
  size_t cap, n;       /* tab's capacity, live entries */
  long long window, next_sweep;
  hp__recent_fin fin; /* may be NULL */
  void *ud;
  unsigned long long epoch; /* bumped by every sweep: entry pointers from before are stale */
  uint64_t *done;           /* hashes of finished keys (bounded), to notice a key coming back */
  size_t done_cap, done_n;
  int done_huge;        /* done lies in huge pages (util/sys/hugemem.h) */
  long long reappeared; /* new keys whose hash was among the finished ones (exact after
                           hp__recent_finish; see pend) */
  uint64_t *slot;       /* the hash table: per slot the entry's index + 1 in the low 32 bits and
                           its hash's low 32 bits above them; 0 = empty */
  size_t slot_cap;      /* a power of two, at least twice n */
  uint32_t *q;          /* sweep order, a ring: entries (index + 1) in order of insertion or last
                           sweep, q[(qhead + i) & (qcap - 1)] for i < n */
  size_t qcap, qhead;   /* qcap: a power of two above n, or 0 */
  uint32_t free_head;   /* unused entries of tab (index + 1) */
  size_t used;          /* entries of tab ever handed out */
  uint64_t *done_bits;  /* a one-bit-per-hash filter of `done` (256 KB): most new keys are told
                           apart without a cache miss in the 4 MB set */
  uint64_t *pend;       /* hashes of the keys added since the last sweep, not yet looked up in
                           `done` (which only a sweep changes): looked up together, so that their
                           cache misses overlap */
  size_t pend_n, pend_cap;
  uint64_t *gone; /* the hashes one sweep finishes, added to `done` after its walk */
  size_t gone_cap;
} hp__recent;

/* The window every parser uses, in rows. */
#define HP__RECENT_WINDOW 8192

void hp__recent_init(hp__recent *r, long long window, hp__recent_fin fin, void *ud);
/* Finds or adds (kid, key) and marks it touched at `row`. *added is 1 for a new key. The entry
 * pointer stays valid until the next touch or sweep; `epoch` changes whenever an older pointer may
 * have gone stale (a sweep, or the entries growing), so a caller may keep one while it does not. */
int hp__recent_touch(hp__recent *r, uint32_t kid, const char *key, size_t klen, long long row,
                     hp__recent_ent **out, int *added);
/* Finishes keys older than the window when `row` has passed the next sweep point. */
int hp__recent_tick(hp__recent *r, long long row);
/* Finishes every key (end of file), frees everything and leaves the window as hp__recent_init
 * made it, but for `reappeared`, which is then exact. */
void hp__recent_finish(hp__recent *r);

#endif /* HPRUN_PROFILE_RECENT_H */
