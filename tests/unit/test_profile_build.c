/*
 * Unit tests for the profile-building pieces the parsers share (lib/profile/model/strtab.c, recent.c,
 * build.c, rows.c, detect.c): string interning, the recent-key window, the accumulators, the
 * per-file field and number readers with their warnings, and format detection. test_profile.c
 * covers the same code through whole fixture files; these pin down each piece on its own, with
 * values worked out by hand.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/model/build.h"
#include "profile/parse/detect.h"
#include "profile/model/recent.h"
#include "profile/model/strtab.h"
#include "util/base/buf.h"
#include "util/csv/csv.h"
#include "util/sys/fsutil.h"
#include "test_csv_mem.h"

static uint32_t intern(hp__strtab *t, const char *s, int *added)
{
  uint32_t id = 99;
  int r = hp__strtab_intern(t, s, strlen(s), hp__hash(s, strlen(s)), &id);

  assert_true(r == 0 || r == 1);
  *added = r;
  return id;
}

static long find(const hp__strtab *t, const char *s)
{
  return hp__strtab_find(t, s, strlen(s), hp__hash(s, strlen(s)));
}

/* ---------------------------------------------------------------------------------------------- */
/* String interning.                                                                               */

static void test_strtab_ids_in_order_of_first_appearance(void **state)
{
  hp__strtab t;
  int added;

  (void)state;
  memset(&t, 0, sizeof(t));
  assert_int_equal(find(&t, "gemm"), -1); /* an empty table has no slots yet */
  assert_int_equal(intern(&t, "gemm", &added), 0);
  assert_int_equal(added, 1);
  assert_int_equal(intern(&t, "softmax", &added), 1);
  assert_int_equal(added, 1);
  assert_int_equal(intern(&t, "gemm", &added), 0);
  assert_int_equal(added, 0);
  assert_int_equal(intern(&t, "", &added), 2);
  assert_int_equal(added, 1);
  assert_int_equal(t.n, 3);
  assert_string_equal(t.s[1], "softmax");
  assert_int_equal(t.len[1], 7);
  assert_int_equal(t.len[2], 0);

  assert_int_equal(find(&t, "softmax"), 1);
  assert_int_equal(find(&t, ""), 2);
  assert_int_equal(find(&t, "conv"), -1);
  assert_int_equal(find(&t, "gem"), -1);      /* a prefix is another string */
  assert_int_equal(find(&t, "softmax2"), -1); /* and so is an extension */
  hp__strtab_free(&t);
  assert_int_equal(t.n, 0);
  assert_int_equal(find(&t, "gemm"), -1);
  hp__strtab_free(&t); /* freeing twice is harmless */
}

static void test_strtab_survives_growth(void **state)
{
  hp__strtab t;
  char name[32];
  int added, i;

  (void)state;
  memset(&t, 0, sizeof(t));
  /* 1000 names force several rehashes (16 slots at first, at most half full). */
  for (i = 0; i < 1000; i++) {
    snprintf(name, sizeof(name), "kernel_%d", i);
    assert_int_equal(intern(&t, name, &added), (uint32_t)i);
    assert_int_equal(added, 1);
  }
  assert_int_equal(t.nslots, 2048);
  assert_int_equal(find(&t, "kernel_0"), 0);
  assert_int_equal(find(&t, "kernel_537"), 537);
  assert_int_equal(find(&t, "kernel_999"), 999);
  assert_int_equal(find(&t, "kernel_1000"), -1);
  assert_int_equal(intern(&t, "kernel_537", &added), 537);
  assert_int_equal(added, 0);
  hp__strtab_free(&t);
}

static void test_hash_is_fixed(void **state)
{
  (void)state;
  /* The same bytes always give the same hash, and any change of length or content changes it:
   * the tables depend on the first, and the recent window's reappearance check on the second. */
  assert_true(hp__hash("vector_add", 10) == hp__hash("vector_add", 10));
  assert_true(hp__hash("vector_add", 10) != hp__hash("vector_add", 9));
  assert_true(hp__hash("vector_adc", 10) != hp__hash("vector_add", 10));
  assert_true(hp__hash("", 0) != hp__hash("\0", 1));
  assert_true(hp__hash_mix(1) != hp__hash_mix(2));
}

static void test_grow_zero_fills(void **state)
{
  int *a = NULL;
  size_t cap = 0, i;

  (void)state;
  assert_int_equal(hp__grow((void **)&a, &cap, 3, sizeof(*a)), 0);
  assert_int_equal(cap, 8);
  for (i = 0; i < cap; i++)
    assert_int_equal(a[i], 0);
  a[0] = 7;
  a[7] = 9;
  assert_int_equal(hp__grow((void **)&a, &cap, 8, sizeof(*a)), 0);
  assert_int_equal(cap, 8); /* already big enough */
  assert_int_equal(hp__grow((void **)&a, &cap, 20, sizeof(*a)), 0);
  assert_int_equal(cap, 32);
  assert_int_equal(a[0], 7);
  assert_int_equal(a[7], 9);
  for (i = 8; i < cap; i++)
    assert_int_equal(a[i], 0);
  free(a);
}

/* ---------------------------------------------------------------------------------------------- */
/* The recent-key window.                                                                          */

typedef struct finished {
  char key[8][16];
  long long first[8], last[8];
  char s[8][16];
  int n;
} finished;

static void record_fin(void *ud, hp__recent_ent *e)
{
  finished *f = ud;

  assert_true(f->n < 8);
  snprintf(f->key[f->n], sizeof(f->key[0]), "%u:%.*s", e->kid, (int)e->klen, e->key);
  f->first[f->n] = e->first;
  f->last[f->n] = e->last;
  snprintf(f->s[f->n], sizeof(f->s[0]), "%s", e->s ? e->s : "-");
  f->n++;
}

static int touch(hp__recent *r, uint32_t kid, const char *key, long long row, hp__recent_ent **e)
{
  int added = -1;

  assert_int_equal(hp__recent_touch(r, kid, key, strlen(key), row, e, &added), 0);
  return added;
}

static int has_key(const finished *f, const char *key)
{
  int i;

  for (i = 0; i < f->n; i++)
    if (strcmp(f->key[i], key) == 0)
      return 1;
  return 0;
}

static void test_recent_window_finishes_stale_keys(void **state)
{
  hp__recent r;
  hp__recent_ent *e;
  finished f;

  (void)state;
  memset(&f, 0, sizeof(f));
  hp__recent_init(&r, 4, record_fin, &f);
  assert_int_equal(touch(&r, 0, "a", 1, &e), 1);
  e->s = hp__strdup("frame"); /* the window owns the payload string and frees it */
  assert_int_equal(touch(&r, 0, "a", 2, &e), 0);
  assert_int_equal(e->first, 1);
  assert_int_equal(e->last, 2);
  assert_string_equal(e->s, "frame");
  assert_int_equal(touch(&r, 1, "a", 3, &e), 1); /* the same key of another kernel is another key */
  assert_int_equal(r.n, 2);

  /* Sweeps happen every `window` rows: the first at row 4, so row 3 does nothing. */
  assert_int_equal(hp__recent_tick(&r, 3), 0);
  assert_int_equal(f.n, 0);
  /* At row 5 keys untouched since before row 1 go: there are none. The next sweep is at 9. */
  assert_int_equal(touch(&r, 1, "a", 5, &e), 0);
  assert_int_equal(hp__recent_tick(&r, 5), 0);
  assert_int_equal(f.n, 0);
  assert_int_equal(hp__recent_tick(&r, 8), 0);
  assert_int_equal(f.n, 0);
  /* At row 9 keys last touched before row 5 go: "0:a" (row 2), not "1:a" (row 5). */
  assert_int_equal(touch(&r, 0, "c", 9, &e), 1);
  assert_int_equal(hp__recent_tick(&r, 9), 0);
  assert_int_equal(f.n, 1);
  assert_string_equal(f.key[0], "0:a");
  assert_int_equal(f.first[0], 1);
  assert_int_equal(f.last[0], 2);
  assert_string_equal(f.s[0], "frame");
  assert_int_equal(r.n, 2);

  /* A finished key that comes back is new again, and counted as reappeared (below, once the
   * finish has made the count exact). */
  assert_int_equal(touch(&r, 0, "a", 10, &e), 1);

  /* The end finishes everything left. */
  hp__recent_finish(&r);
  assert_int_equal(r.reappeared, 1);
  assert_int_equal(f.n, 4);
  assert_true(has_key(&f, "1:a"));
  assert_true(has_key(&f, "0:c"));
  assert_int_equal(r.n, 0);
  hp__recent_finish(&r); /* finishing twice is harmless */
  assert_int_equal(f.n, 4);
}

static void test_recent_window_grows(void **state)
{
  hp__recent r;
  hp__recent_ent *e;
  char key[16];
  int i;

  (void)state;
  hp__recent_init(&r, 0, NULL, NULL); /* 0: the default window */
  assert_int_equal(r.window, HP__RECENT_WINDOW);
  assert_int_equal(HP__RECENT_WINDOW, 8192);
  for (i = 0; i < 1000; i++) {
    snprintf(key, sizeof(key), "%d", i);
    assert_int_equal(touch(&r, 0, key, i + 1, &e), 1);
  }
  assert_int_equal(r.n, 1000);
  for (i = 0; i < 1000; i += 111) {
    snprintf(key, sizeof(key), "%d", i);
    assert_int_equal(touch(&r, 0, key, 2000, &e), 0);
    assert_int_equal(e->first, i + 1);
  }
  hp__recent_finish(&r);
}

/* ---------------------------------------------------------------------------------------------- */
/* Accumulators.                                                                                   */

static void test_tstat_merges_stats_and_traces(void **state)
{
  hp__ttable t;
  hp__tstat *s, *again;

  (void)state;
  memset(&t, 0, sizeof(t));
  assert_int_equal(hp__ttable_get(&t, "k", 1, &s), 0);
  assert_true(isnan(s->avg_reported));
  assert_int_equal(s->nsources, 0);

  hp__tstat_add_stats(s, 2, 300, 150, 100, 200);
  assert_int_equal(s->calls, 2);
  assert_true(s->total_ns == 300);
  assert_true(s->avg_reported == 150); /* one stats row: the profiler's own average stands */
  assert_int_equal(s->nsources, 1);
  assert_true(s->min_ns == 100 && s->max_ns == 200);

  hp__tstat_add_trace(s, 50, 7);
  hp__tstat_add_trace(s, 400, 7);
  assert_int_equal(s->calls, 4);
  assert_true(s->total_ns == 750);
  assert_true(isnan(s->avg_reported)); /* merged: the average must come from the totals */
  assert_int_equal(s->nsources, 2);    /* both traced calls came from file 7 */
  assert_true(s->min_ns == 50 && s->max_ns == 400);
  hp__tstat_add_trace(s, 60, 8);
  assert_int_equal(s->nsources, 3);

  hp__tstat_add_stats(s, 1, 10, NAN, NAN, NAN); /* a stats file without min/max */
  assert_int_equal(s->nominmax, 1);
  assert_true(s->min_ns == 50 && s->max_ns == 400);

  assert_int_equal(hp__ttable_get(&t, "k", 1, &again), 0);
  assert_ptr_equal(again, s);
  assert_int_equal(t.names.n, 1);
  hp__ttable_free(&t);
  assert_int_equal(t.names.n, 0);
}

static void test_vals_keep_sixteen_distinct(void **state)
{
  hp__vals v;
  char num[8];
  size_t i;

  (void)state;
  memset(&v, 0, sizeof(v));
  assert_int_equal(hp__vals_add(&v, " 256 ", 5), 0);
  assert_int_equal(hp__vals_add(&v, "256", 3), 0);
  assert_int_equal(hp__vals_add(&v, "  ", 2), 0); /* empty after trimming: not a value */
  assert_int_equal(v.n, 1);
  assert_string_equal(v.v[0], "256");
  for (i = 0; i < 20; i++) {
    snprintf(num, sizeof(num), "%zu", i);
    assert_int_equal(hp__vals_add(&v, num, strlen(num)), 0);
  }
  /* The 16 smallest are kept: "0".."14" went to slots 1..15; "15" then took the slot of "256",
   * the largest (its 2 rows became "more"), and "16".."19" are larger than every kept value. */
  assert_int_equal(v.n, HP__MAX_VALS);
  assert_string_equal(v.v[15], "14");
  assert_string_equal(v.v[0], "15");
  assert_int_equal(v.cnt[0], 1);
  assert_int_equal(v.more, 6); /* 2 rows of "256", one each of "16" .. "19" */
  assert_int_equal(hp__vals_add(&v, "3", 1), 0);
  assert_int_equal(v.more, 6);   /* a kept value is not "more" */
  assert_int_equal(v.cnt[4], 2); /* "3" sits in slot 4 */
  for (i = 0; i < v.n; i++)
    free(v.v[i]);
}

static void test_counters_and_metrics_keys(void **state)
{
  hp_profile *p;
  uint32_t a, b, c, d, m1, m2, m3;
  const char *name;

  (void)state;
  assert_int_equal(hp_profile_new(&p), 0);
  /* Counter instances sum into one counter. */
  assert_int_equal(hp__pmc_counter(p, "TCC_HIT[3]", 10, &a), 0);
  assert_int_equal(hp__pmc_counter(p, " TCC_HIT ", 9, &b), 0);
  assert_int_equal(hp__pmc_counter(p, "TCC_MISS[0]", 11, &c), 0);
  assert_int_equal(hp__pmc_counter(p, "GRBM[]", 6, &d), 0);
  assert_int_equal(a, 0);
  assert_int_equal(b, 0);
  assert_int_equal(c, 1);
  assert_int_equal(d, 2);
  assert_string_equal(p->counters.s[2], "GRBM[]"); /* no digits: not an instance suffix */

  assert_int_equal(hp__pmc_kernel_get(p, "k", 1, &a), 0);
  assert_int_equal(hp__pmc_add(p, a, 1, 2.5, 1), 0);
  assert_int_equal(hp__pmc_add(p, a, 1, 1.5, 0), 0);
  assert_true(p->pmc[a].csum[1] == 4.0);
  assert_int_equal(p->pmc[a].cn[1], 1);
  assert_true(p->pmc[a].csum[0] == 0);
  hp__pmc_time(&p->pmc[a], 30);
  hp__pmc_time(&p->pmc[a], 10);
  assert_int_equal(p->pmc[a].tn, 2);
  assert_true(p->pmc[a].tmin == 10 && p->pmc[a].tmax == 30 && p->pmc[a].tsum == 40);

  /* ncu metrics are keyed by name and unit. */
  assert_int_equal(hp__ncu_metric(p, "dram__bytes", 11, "byte", 4, &m1), 0);
  assert_int_equal(hp__ncu_metric(p, "dram__bytes ", 12, " Kbyte", 6, &m2), 0);
  assert_int_equal(hp__ncu_metric(p, "dram__bytes", 11, NULL, 0, &m3), 0);
  assert_int_equal(m1, 0);
  assert_int_equal(m2, 1);
  assert_int_equal(m3, 2);
  assert_int_equal(hp__ncu_metric_name(p, m2, &name), 11);
  assert_memory_equal(name, "dram__bytes", 11);
  assert_string_equal(p->metric_unit[m2], "Kbyte");
  assert_null(p->metric_unit[m3]);
  hp_profile_free(p);
}

static void test_stack_origins_tie_to_earliest(void **state)
{
  hp_profile *p;
  uint32_t k;

  (void)state;
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp__stack_kernel_get(p, "gemm", 4, &k), 0);
  assert_int_equal(hp__stack_origin(p, k, "train.py:10", 50), 0);
  assert_int_equal(hp__stack_origin(p, k, "model.py:3", 20), 0);
  assert_int_equal(hp__stack_origin(p, k, "train.py:10", 5), 0);
  assert_int_equal(p->stk[k].launches, 3);
  assert_int_equal(p->stk[k].no, 2);
  assert_string_equal(p->stk[k].o[0].frame, "train.py:10");
  assert_int_equal(p->stk[k].o[0].n, 2);
  assert_int_equal(p->stk[k].o[0].first, 5);
  assert_int_equal(p->stk[k].o[1].first, 20);
  hp_profile_free(p);
}

/* ---------------------------------------------------------------------------------------------- */
/* One file's rows.                                                                                */

static const char *nth_msg(const hp_diags *d, size_t i)
{
  const hp_diag *g = d->head;

  while (g && i--)
    g = g->next;
  return g ? g->msg : "";
}

static void test_rows_fields_numbers_and_warnings(void **state)
{
  static const char data[] = "Name,Calls,TotalDurationNs\n"
                             "k,x,1.5e3\n"
                             "short\n";
  static const char *const want[] = {"Name", "Calls", "AverageNs", "MinNs"};
  hp__csv *c = NULL;
  hp__csv_rec rec;
  hp__pctx x;
  hp_diags d;
  int idx[4];
  double v;
  long long ll;
  size_t n;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(csv_open_bytes(&c, data, sizeof(data) - 1, NULL), 0);
  memset(&x, 0, sizeof(x));
  x.csv = c;
  x.path = "t.csv";
  x.diags = &d;
  assert_int_equal(hp__read_header(&x, &rec), 1);
  hp__csv_map(&rec, want, 4, idx);
  assert_int_equal(hp__require(&x, rec.line, want, idx, 2), 0);
  assert_int_equal(hp__require(&x, rec.line, want, idx, 4), 1);
  assert_string_equal(nth_msg(&d, 0),
                      "header lacks the columns 'AverageNs', 'MinNs'; the file is skipped");

  assert_int_equal(hp__csv_next(c, &rec), 1);
  assert_string_equal(hp__fld(&rec, 0, &n), "k");
  assert_int_equal(n, 1);
  assert_null(hp__fld(&rec, -1, &n)); /* an absent column */
  assert_int_equal(n, 0);
  assert_null(hp__fld(&rec, 3, &n)); /* beyond the row */
  assert_int_equal(hp__fnum(&x, &rec, 2, "TotalDurationNs", &v), 1);
  assert_true(v == 1500.0);
  assert_int_equal(hp__fnum(&x, &rec, -1, "AverageNs", &v), 0);
  assert_true(isnan(v));
  assert_int_equal(hp__fll(&x, &rec, 1, "Calls", &ll), -1);
  assert_string_equal(nth_msg(&d, 1),
                      "column 'Calls': \"x\" is not a whole number; the value is skipped");
  assert_int_equal(hp__fll(&x, &rec, 2, "TotalDurationNs", &ll), 1); /* 1.5e3 is whole */
  assert_int_equal(ll, 1500);

  assert_int_equal(hp__csv_next(c, &rec), 1);
  hp__check_width(&x, &rec, 3);
  assert_string_equal(nth_msg(&d, 2),
                      "row has 1 fields, the header has 3; missing fields are taken as empty");
  assert_int_equal(d.head->next->line, 2);
  assert_int_equal(x.nwarn, 3);
  hp__csv_free(c);
  hp_diags_free(&d);
}

static void test_rows_warnings_are_capped(void **state)
{
  hp__pctx x;
  hp_diags d;
  int i;

  (void)state;
  hp_diags_init(&d);
  memset(&x, 0, sizeof(x));
  x.path = "big.csv";
  x.diags = &d;
  for (i = 0; i < 25; i++)
    hp__pwarn(&x, i + 2, "bad row %d", i);
  assert_int_equal(HP__MAX_FILE_WARNINGS, 20);
  assert_int_equal(d.count, 20);
  assert_int_equal(x.nwarn, 20);
  assert_int_equal(x.nsuppressed, 5);
  assert_string_equal(nth_msg(&d, 19), "bad row 19");
  assert_string_equal(d.tail->file, "big.csv");
  assert_int_equal(d.tail->line, 21);
  hp_diags_free(&d);
}

static void test_empty_file_and_span(void **state)
{
  hp__csv *c = NULL;
  hp__csv_rec rec;
  hp__pctx x;
  hp_diags d;

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(csv_open_bytes(&c, "", 0, NULL), 0);
  memset(&x, 0, sizeof(x));
  x.csv = c;
  x.path = "e.csv";
  x.diags = &d;
  assert_int_equal(hp__read_header(&x, &rec), 0);
  assert_string_equal(nth_msg(&d, 0), "the file is empty (no header)");
  hp__csv_free(c);
  hp_diags_free(&d);

  assert_true(hp__span_ns(100, 350) == 250.0);
  assert_true(hp__span_ns(350, 100) == -250.0);
  /* Far-apart values wrap instead of overflowing. */
  assert_true(hp__span_ns(LLONG_MIN, LLONG_MAX) == -1.0);
  assert_int_equal(hp__table_bit(HP__T_HSA), HP__TB_HSA);
  assert_int_equal(hp__table_bit(HP__T_KERNEL), HP__TB_KERNEL);
}

/* ---------------------------------------------------------------------------------------------- */
/* Format detection.                                                                               */

static void test_detect_by_name_header_and_binary(void **state)
{
  char dir[] = "/tmp/hprun-test-build-XXXXXX", *path;
  static const char bin[] = "Name,Calls\n\0\1\2";
  hp_diags d;

  (void)state;
  hp_diags_init(&d);
  assert_non_null(mkdtemp(dir));
  path = hp__path_join(dir, "run_kernel_stats.csv");
  assert_int_equal(hp__write_file(path, "Name,Calls,TotalDurationNs\n", 27, 0), 0);
  assert_int_equal(hp__detect(path, &d), HP__F_V3_KSTATS);
  assert_string_equal(hp__fmt_name(HP__F_V3_KSTATS), "rocprofv3-kernel-stats");
  assert_int_equal(hp__write_file(path, bin, sizeof(bin) - 1, 0), 0);
  assert_int_equal(hp__detect(path, &d), HP__F_UNKNOWN);
  assert_string_equal(nth_msg(&d, 0),
                      "binary data where a rocprofv3-kernel-stats CSV was "
                      "expected; the file is skipped");
  unlink(path);
  free(path);

  path = hp__path_join(dir, "frames.csv"); /* no known name: told by the header */
  assert_int_equal(hp__write_file(path, "str_name,index,stack_sq,addrname\n", 33, 0), 0);
  assert_int_equal(hp__detect(path, &d), HP__F_HIPPROF_STACK);
  unlink(path);
  free(path);

  path = hp__path_join(dir, "notes.md");
  assert_int_equal(hp__write_file(path, "# notes\n", 8, 0), 0);
  assert_int_equal(hp__detect(path, &d), HP__F_UNKNOWN);
  unlink(path);
  free(path);
  assert_int_equal(d.count, 1);
  assert_string_equal(hp__fmt_name(HP__F_N), "unknown");
  rmdir(dir);
  hp_diags_free(&d);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_strtab_ids_in_order_of_first_appearance),
      cmocka_unit_test(test_strtab_survives_growth),
      cmocka_unit_test(test_hash_is_fixed),
      cmocka_unit_test(test_grow_zero_fills),
      cmocka_unit_test(test_recent_window_finishes_stale_keys),
      cmocka_unit_test(test_recent_window_grows),
      cmocka_unit_test(test_tstat_merges_stats_and_traces),
      cmocka_unit_test(test_vals_keep_sixteen_distinct),
      cmocka_unit_test(test_counters_and_metrics_keys),
      cmocka_unit_test(test_stack_origins_tie_to_earliest),
      cmocka_unit_test(test_rows_fields_numbers_and_warnings),
      cmocka_unit_test(test_rows_warnings_are_capped),
      cmocka_unit_test(test_empty_file_and_span),
      cmocka_unit_test(test_detect_by_name_header_and_binary),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
