/*
 * Zeroed memory in transparent huge pages (lib/util/sys/hugemem.c), for the few large buffers and
 * tables of a big file's parse: the CSV reader's buffer and the finished-key set of the launch
 * window. Why: a page fault is costly on the virtual machines hprun runs on, and in 4 KB pages
 * these buffers take hundreds to thousands of faults where 2 MB pages take a few. The pages are
 * fresh from mmap, so they are zero without a memset.
 *
 * The memory is the caller's: it gives it back with hp__huge_free and the size it asked for.
 */
#ifndef HPRUN_UTIL_HUGEMEM_H
#define HPRUN_UTIL_HUGEMEM_H

#include <stddef.h>

/* `size` zeroed bytes aligned to 2 MB and marked for transparent huge pages (advice: where the
 * system gives none, they are ordinary pages), or NULL when the mapping fails (the caller falls
 * back to calloc). */
void *hp__huge_alloc(size_t size);
/* Gives back what hp__huge_alloc(size) returned. Accepts NULL. */
void hp__huge_free(void *p, size_t size);

#endif /* HPRUN_UTIL_HUGEMEM_H */
