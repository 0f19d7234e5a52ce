/*
 * Tests for lib/tool/tools.c: the public list of profiler tools and their modes, which help texts
 * read instead of keeping their own copy of the driver table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "hprun.h"

/* The five tools hprun drives, in the table's order (docs/drivers.md). */
static void test_names(void **state)
{
  assert_int_equal(hp_tool_count(), 6);
  assert_string_equal(hp_tool_name(0), "hipprof");
  assert_string_equal(hp_tool_name(1), "rocprofv3");
  assert_string_equal(hp_tool_name(2), "rocprof");
  assert_string_equal(hp_tool_name(3), "ncu");
  assert_string_equal(hp_tool_name(4), "nsys");
  assert_string_equal(hp_tool_name(5), "torch");
  assert_null(hp_tool_name(6));
  assert_null(hp_tool_name((size_t)-1));
  /* Asking again gives the same answers (the list is split once). */
  assert_int_equal(hp_tool_count(), 6);
  assert_string_equal(hp_tool_name(3), "ncu");
}

/* Each tool's modes, the generic ones first; a name must match exactly. */
static void test_modes(void **state)
{
  assert_string_equal(hp_tool_modes("ncu"), "normal, command, time, basic, full, default");
  assert_string_equal(hp_tool_modes("rocprof"),
                      "normal, command, stats, hip-trace, sys-trace, pmc");
  assert_string_equal(hp_tool_modes("rocprofv3"),
                      "normal, command, kernel-trace, hip-trace, stats, sys-trace, pmc");
  assert_non_null(strstr(hp_tool_modes("hipprof"), ", kernel-stack, "));
  assert_string_equal(hp_tool_modes("nsys"), "normal, command, cuda, osrt, sample");
  assert_null(hp_tool_modes("nsight"));
  assert_null(hp_tool_modes("NCU"));
  assert_null(hp_tool_modes(""));
  assert_null(hp_tool_modes(NULL));
}

/* Every listed name has modes: the list and the table agree. */
static void test_every_name_has_modes(void **state)
{
  size_t i;

  for (i = 0; i < hp_tool_count(); i++)
    assert_non_null(hp_tool_modes(hp_tool_name(i)));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names),
      cmocka_unit_test(test_modes),
      cmocka_unit_test(test_every_name_has_modes),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
