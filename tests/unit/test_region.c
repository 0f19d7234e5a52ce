/*
 * app.region for rocprofv3 (lib/profile/model/region.c, parse/region.c): the span test on
 * hand-placed dispatches, the exact-name rule on rocprofiler-sdk's own documentation samples, and
 * the kernel tables of a real kernel trace filtered by constructed marker rows
 * (tests/fixtures/real/rocprofv3-marker/README.md says which is which). Every expected number is
 * worked out in the comments from the files' timestamps.
 */
#include "profile/parse/region.h"
#include "hprun.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#define FX "tests/fixtures/real/rocprofv3-marker/"

/* Two processes' spans, A = [100, 200] and B = [500, 600]: inside means inside ONE span, ends
 * included; what ran between them (inside their bounding window [100, 600]) is out. */
static void test_spans(void **state)
{
  hp__region *rg = NULL;

  (void)state;
  assert_int_equal(hp__region_new("timed", &rg), 0);
  assert_int_equal(hp__region_contains(rg, 120, 180), 0); /* no span yet */
  assert_int_equal(hp__region_add(rg, 500, 600), 0);
  assert_int_equal(hp__region_add(rg, 100, 200), 0);
  hp__region_sort(rg);
  assert_int_equal(hp__region_contains(rg, 120, 180), 1); /* inside A */
  assert_int_equal(hp__region_contains(rg, 100, 200), 1); /* exactly A */
  assert_int_equal(hp__region_contains(rg, 550, 600), 1); /* inside B, ends with it */
  assert_int_equal(hp__region_contains(rg, 90, 150), 0);  /* straddles A's start */
  assert_int_equal(hp__region_contains(rg, 190, 210), 0); /* straddles A's end */
  assert_int_equal(hp__region_contains(rg, 300, 400), 0); /* between A and B */
  assert_int_equal(hp__region_contains(rg, 150, 550), 0); /* from A into B */
  assert_int_equal(hp__region_contains(rg, 50, 60), 0);   /* before */
  assert_int_equal(hp__region_contains(rg, 650, 700), 0); /* after */
  /* A third span C = [150, 450] overlaps A: [300, 400] and [190, 210] are now inside C, while
   * [110, 300] starts before C and ends after A, so no single span holds it. */
  assert_int_equal(hp__region_add(rg, 150, 450), 0);
  hp__region_sort(rg);
  assert_int_equal(hp__region_contains(rg, 300, 400), 1);
  assert_int_equal(hp__region_contains(rg, 190, 210), 1);
  assert_int_equal(hp__region_contains(rg, 160, 190), 1);
  assert_int_equal(hp__region_contains(rg, 110, 300), 0);
  assert_int_equal(hp__region_contains(rg, 460, 520), 0);
  hp__region_free(rg);
  hp__region_free(NULL);
}

/* The name must equal the Function field: in the MatrixTranspose sample "hipLaunchKernel" is one
 * row of five, not the rows "before hipLaunchKernel", "after hipLaunchKernel" and
 * "hipLaunchKernel range" that contain it. Without a kernel trace its span holds no dispatch. */
static void test_doc_samples(void **state)
{
  char *mt = FX "doc-matrix-transpose/210_marker_api_trace.csv";
  char *kk = FX "doc-kokkos/210_marker_api_trace.csv";
  hp__fmt none = HP__F_UNKNOWN; /* what detection makes of a marker trace */
  hp__region *rg = NULL;
  hp_diags d;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp__region_new("hipLaunchKernel", &rg), 0);
  assert_int_equal(hp__region_prepare(rg, &mt, &none, 1, &d), 0);
  assert_int_equal(rg->n, 1);
  assert_true(rg->s[0] == 1520113899684965LL && rg->e[0] == 1520113901491622LL);
  assert_int_equal(rg->state, HP_REGION_EMPTY);
  assert_int_equal(d.count, 1);
  assert_non_null(strstr(d.head->msg, "the tables cover the whole run"));
  hp__region_free(rg);
  hp_diags_free(&d);

  hp_diags_init(&d);
  assert_int_equal(hp__region_new("hipLaunch", &rg), 0);
  assert_int_equal(hp__region_prepare(rg, &mt, &none, 1, &d), 0);
  assert_int_equal(rg->n, 0);
  assert_int_equal(rg->state, HP_REGION_NOT_FOUND);
  assert_non_null(strstr(d.head->msg,
                         "region hipLaunch not found in the marker trace: the "
                         "tables cover the whole run"));
  hp__region_free(rg);
  hp_diags_free(&d);

  /* A quoted message with commas, angle brackets and spaces (the Kokkos sample). */
  hp_diags_init(&d);
  assert_int_equal(hp__region_new("Kokkos::parallel_reduce: fence due to result being value, "
                                  "not view",
                                  &rg),
                   0);
  assert_int_equal(hp__region_prepare(rg, &kk, &none, 1, &d), 0);
  assert_int_equal(rg->n, 1);
  assert_true(rg->s[0] == 56728501767957LL && rg->e[0] == 56728501769600LL);
  hp__region_free(rg);
  hp_diags_free(&d);
}

/* The real jacobi-omp kernel trace (9 dispatches) with constructed marker rows "timed":
 * [..76000000, ..85400000] holds dispatches 2-4 (laplacian, boundary, update of the first
 * iteration: 76381800-76429320, 79189038-79199278, 85289126-85337166); [..90000000, ..97400000]
 * holds 6-8 (90242479-90289479, 92966432-92976272, 97343879-97389119); [..99000000, ..00000000]
 * holds nothing (dispatch 9 ends at ..00021345). Dispatch 5 (87888094-87980254) lies between two
 * spans; "before timed" and "setup" are other names. Kept: 6 of 9, two calls each of laplacian
 * (47520 + 47000 ns), boundary (10240 + 9840) and update (48040 + 45240); no norm kernel. */
static void test_constructed_pairing(void **state)
{
  hp_profile *p = NULL;
  hp_profile_region rg;
  hp_profile_totals t;
  hp_kernel_stat ks;
  hp_diags d;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_set_region(p, "timed"), 0);
  assert_int_equal(hp_profile_add_path(p, FX "constructed", &d), 0);
  assert_int_equal(d.count, 0);
  assert_int_equal(hp_profile_get_region(p, &rg), 0);
  assert_string_equal(rg.name, "timed");
  assert_int_equal(rg.state, HP_REGION_APPLIED);
  assert_int_equal(rg.spans, 3);
  assert_int_equal(rg.kept, 6);
  assert_int_equal(rg.total, 9);
  assert_int_equal(hp_profile_get_totals(p, &t), 0);
  assert_int_equal(t.kernels, 3);
  assert_int_equal(t.launches, 6);
  assert_true(t.kernel_ns == 47520 + 47000 + 10240 + 9840 + 48040 + 45240);
  /* first kept start (dispatch 2) to last kept end (dispatch 8) */
  assert_true(t.span_ns == 5329321997389119.0 - 5329321976381800.0);
  assert_int_equal(hp_profile_kernel_find(p, "laplacian", &ks), 0);
  assert_int_equal(ks.calls, 2);
  assert_int_equal(hp_profile_kernel_find(p, "norm_mod", &ks), HP_ENOENT);
  hp_profile_free(p);

  /* A name no row has: every dispatch, and the warning. */
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_set_region(p, "Timed"), 0);
  assert_int_equal(hp_profile_add_path(p, FX "constructed", &d), 0);
  assert_int_equal(d.count, 1);
  assert_non_null(strstr(d.head->msg,
                         "region Timed not found in the marker trace: the tables "
                         "cover the whole run"));
  assert_int_equal(hp_profile_get_region(p, &rg), 0);
  assert_int_equal(rg.state, HP_REGION_NOT_FOUND);
  assert_int_equal(hp_profile_get_totals(p, &t), 0);
  assert_int_equal(t.launches, 9);
  hp_profile_free(p);
  hp_diags_free(&d);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spans),
      cmocka_unit_test(test_doc_samples),
      cmocka_unit_test(test_constructed_pairing),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
