/*
 * Zeroed memory in transparent huge pages (hugemem.h): an anonymous mapping 2 MB larger than
 * asked, cut down to a 2 MB-aligned run of whole 2 MB pages, then marked MADV_HUGEPAGE before
 * anything touches it.
 */
#include "util/sys/hugemem.h"
#include "hprun.h"

#include <stdint.h>
#include <sys/mman.h>

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
