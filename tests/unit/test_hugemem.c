/*
 * Unit tests for lib/util/sys/hugemem.c: memory from hp__huge_alloc is aligned to 2 MB, zero, writable
 * over the whole size asked for, and given back by hp__huge_free; size 0 gives NULL. After
 * hp_heap_tune, a 1 MiB block comes from the brk heap (glibc maps blocks over 128 KiB by default),
 * comes back at the same place when freed and asked for again, and lies in a mapping marked for
 * huge pages (VmFlags "hg" in /proc/self/smaps) where the system offers them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hprun.h"
#include "util/sys/hugemem.h"

static void test_alloc(void **state)
{
  static const size_t sizes[] = {1, 4096, ((size_t)1 << 20) + 128, (size_t)2 << 20,
                                 ((size_t)4 << 20) + 1};
  size_t i, k;

  (void)state;
  for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
    unsigned char *p = hp__huge_alloc(sizes[i]);
    assert_non_null(p);
    assert_int_equal((uintptr_t)p & (((uintptr_t)2 << 20) - 1), 0);
    for (k = 0; k < sizes[i]; k += 4093)
      assert_int_equal(p[k], 0);
    assert_int_equal(p[sizes[i] - 1], 0);
    memset(p, 0xA5, sizes[i]);
    assert_int_equal(p[sizes[i] - 1], 0xA5);
    hp__huge_free(p, sizes[i]);
  }
  assert_null(hp__huge_alloc(0));
  hp__huge_free(NULL, 1);
}

/* Whether the system gives transparent huge pages to memory that asks (enabled: always or
 * madvise). */
static int thp_offered(void)
{
  char line[256] = "";
  FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "re");

  if (f == NULL)
    return 0;
  if (fgets(line, sizeof(line), f) == NULL)
    line[0] = '\0';
  fclose(f);
  return strstr(line, "[always]") != NULL || strstr(line, "[madvise]") != NULL;
}

/* The VmFlags line of the mapping in /proc/self/smaps that holds address a; "" when none. */
static void vm_flags_of(uintptr_t a, char *out, size_t cap)
{
  char line[512];
  unsigned long lo, hi;
  int in = 0;
  FILE *f = fopen("/proc/self/smaps", "re");

  out[0] = '\0';
  if (f == NULL)
    return;
  while (fgets(line, sizeof(line), f) != NULL) {
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2 && strchr(line, '-') < strchr(line, ' '))
      in = a >= lo && a < hi;
    else if (in && strncmp(line, "VmFlags:", 8) == 0) {
      snprintf(out, cap, "%s", line + 8);
      break;
    }
  }
  fclose(f);
}

static void test_heap_tune(void **state)
{
  const size_t size = (size_t)1 << 20;
  unsigned char *p, *q;
  char flags[512];

  (void)state;
#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
  skip(); /* another allocator: hp_heap_tune only advises glibc's */
#elif !__GLIBC_PREREQ(2, 33)
  skip(); /* hp_heap_tune needs mallinfo2 */
#endif
  assert_int_equal(hp_heap_tune(), 0);
  assert_int_equal(hp_heap_tune(), 0); /* a second call changes nothing */
  p = malloc(size);
  assert_non_null(p);
  memset(p, 0x5A, size);
  /* In the brk heap: below its end. A block glibc maps lies far above it. */
  assert_true((uintptr_t)p + size <= (uintptr_t)sbrk(0));
  free(p);
  q = malloc(size);
  assert_ptr_equal(q, p); /* the freed heap was kept, not handed back */
  if (thp_offered()) {
    vm_flags_of((uintptr_t)q + size / 2, flags, sizeof(flags));
    assert_non_null(strstr(flags, " hg"));
  }
  free(q);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alloc),
      cmocka_unit_test(test_heap_tune),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
