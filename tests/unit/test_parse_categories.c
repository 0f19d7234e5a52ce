/*
 * The built-in kernel categories (lib/profile/profile.c) and configs/categories/pytorch.yaml must
 * say the same thing: the YAML file is documented as "what you get without one". Run from the
 * repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "hprun.h"
#include "profile/profile.h"

static void test_yaml_matches_builtin_rules(void **state)
{
  hp_category_rule *rules = NULL;
  hp_profile *builtin, *yaml;
  hp_diags d;
  size_t n = 0, i, k;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_categories_load("configs/categories/pytorch.yaml", &rules, &n, &d), 0);
  assert_int_equal(d.nerrors, 0);
  assert_int_equal(hp_profile_new(&builtin), 0);
  assert_int_equal(hp_profile_new(&yaml), 0);
  assert_int_equal(hp_profile_set_categories(yaml, rules, n), 0);
  assert_int_equal(yaml->ncats, builtin->ncats);
  assert_int_equal(n, 10); /* the article's ten rules */
  for (i = 0; i < n; i++) {
    assert_string_equal(yaml->cats[i].name, builtin->cats[i].name);
    assert_int_equal(yaml->cats[i].npat, builtin->cats[i].npat);
    for (k = 0; k < yaml->cats[i].npat; k++)
      assert_string_equal(yaml->cats[i].pat[k], builtin->cats[i].pat[k]);
  }
  /* And they classify alike. */
  assert_string_equal(hp__profile_classify(yaml, "elementwise_kernel<binary_internal::add_kernel>"),
                      "add");
  assert_string_equal(
      hp__profile_classify(builtin, "elementwise_kernel<binary_internal::add_kernel>"), "add");
  hp_categories_free(rules, n);
  hp_profile_free(builtin);
  hp_profile_free(yaml);
  hp_diags_free(&d);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_yaml_matches_builtin_rules),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
