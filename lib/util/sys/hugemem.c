/*
 * Zeroed memory in transparent huge pages (hugemem.h): an anonymous mapping 2 MB larger than
 * asked, cut down to a 2 MB-aligned run of whole 2 MB pages, then marked MADV_HUGEPAGE before
 * anything touches it.
 */
#include "util/sys/hugemem.h"
#include "hprun.h"

#include <stdint.h>
#include <sys/mman.h>
#if defined(__GLIBC__)
#include <malloc.h>
#include <stdlib.h>
#include <unistd.h>
#endif

#define HUGE_PAGE ((size_t)2 << 20)

/* size rounded up to whole huge pages. */
static size_t huge_round(size_t size)
{
  return (size + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
}

void *hp__huge_alloc(size_t size)
{
  size_t len = huge_round(size), head;
  char *p, *a;

  if (size == 0 || len < size || len + HUGE_PAGE < len)
    return NULL;
  p = mmap(NULL, len + HUGE_PAGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  a = (char *)(((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
  head = (size_t)(a - p);
  if (head)
    munmap(p, head);
  munmap(a + len, HUGE_PAGE - head);
#ifdef MADV_HUGEPAGE
  madvise(a, len, MADV_HUGEPAGE); /* advice only */
#endif
  return a;
}

void hp__huge_free(void *p, size_t size)
{
  if (p)
    munmap(p, huge_round(size));
}

/* The heap grows by this much beyond a request (M_TOP_PAD) and takes blocks up to this size
 * (M_MMAP_THRESHOLD). */
#define HEAP_SPAN ((size_t)64 << 20)

/* hp_heap_tune needs glibc's mallopt and, for the heap's top, mallinfo2 (glibc 2.33). The test of
 * the version is nested: __GLIBC_PREREQ is a function-like macro only glibc defines, and an #if
 * that names it elsewhere does not parse. */
#if defined(__GLIBC__) && defined(M_MMAP_THRESHOLD)
#if __GLIBC_PREREQ(2, 33)
#define HEAP_TUNE 1
#endif
#endif

#if defined(HEAP_TUNE)
/* Holds the heap's bytes below its first 2 MB boundary, so that what is allocated next comes from
 * above it (see hp_heap_tune). Never freed: a pointer kept here is no leak, and its pages, never
 * touched but for malloc's header, cost nothing. */
static void *heap_filler;
#endif

int hp_heap_tune(void)
{
#if defined(HEAP_TUNE)
  uintptr_t top, a, hi;
  size_t fill;

  /* Blocks up to 64 MiB from the heap, and a freed heap kept (M_TRIM_THRESHOLD): each range of a
   * large file allocates and frees the same tables, which then land on pages already faulted in,
   * where glibc would map and unmap every block over 128 KiB afresh. */
  mallopt(M_MMAP_THRESHOLD, (int)HEAP_SPAN);
  mallopt(M_TRIM_THRESHOLD, (int)(4 * HEAP_SPAN));
  mallopt(M_TOP_PAD, (int)HEAP_SPAN);
  if (heap_filler != NULL)
    return 0;
  /* Huge pages back only whole 2 MB pages of a mapping, so the filler takes the heap's top chunk
   * up to the next 2 MB boundary and what comes later is allocated above it. The top chunk is the
   * last keepcost bytes below the heap's end (glibc's main arena, the calling thread's before any
   * other thread allocates). Its header is 16 bytes below the block; a chunk of C bytes holds a
   * request of C - 8. Growing the heap for the filler adds the top pad, HEAP_SPAN, which is then
   * marked for huge pages before anything touches it. Each step is advice: when a guess misses
   * (another allocator, a heap that glibc could not grow with brk), fewer pages are huge and
   * nothing else changes. */
  free(malloc(1)); /* malloc set up, with its per-thread cache, before the heap is measured */
  hi = (uintptr_t)sbrk(0);
  top = hi - (uintptr_t)mallinfo2().keepcost;
  if (hi == (uintptr_t)-1 || top > hi)
    return 0;
  a = (top + 16 + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
  fill = a - 16 - top;
  if (fill < 4096)
    fill += HUGE_PAGE; /* small requests may come from free lists instead */
  if ((heap_filler = malloc(fill - 8)) == NULL)
    return 0;
  a = (uintptr_t)heap_filler + fill; /* where the next block's data starts (its header: below) */
  hi = (uintptr_t)sbrk(0) & ~(uintptr_t)(HUGE_PAGE - 1);
  a = (a + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
#ifdef MADV_HUGEPAGE
  if (hi > a)
    madvise((void *)a, hi - a, MADV_HUGEPAGE); /* advice only */
#endif
#endif
  return 0;
}
