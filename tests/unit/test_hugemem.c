/*
 * Unit tests for lib/util/sys/hugemem.c: memory from hp__huge_alloc is aligned to 2 MB, zero, writable
 * over the whole size asked for, and given back by hp__huge_free; size 0 gives NULL.
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

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_alloc),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
