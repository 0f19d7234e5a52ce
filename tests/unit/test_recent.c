/*
 * The launch window without rebuilds (lib/profile/model/recent.c) against a plain model of what the
 * seed's rebuilding window did: at row >= next sweep, every key last touched before
 * row - window is finished and forgotten. Random touches (a few kernels, keys short and long, so
 * that both inline and allocated keys are used) and ticks; after every call the finished keys,
 * their first and last rows, the `added` answers, the live count and the reappearances must be
 * the model's. The order in which one sweep finishes its keys is free (results are sums and
 * counts), so each sweep's set is compared sorted.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile/model/recent.h"

#define MAXK 4096

typedef struct mkey {
  unsigned kid;
  char key[40];
  long long first, last;
  int live;
} mkey;

typedef struct model {
  mkey k[MAXK];
  int n;
  long long window, next_sweep, reappeared;
  char done[MAXK][48];
  int ndone;
} model;

static char got[MAXK][64], want[MAXK][64];
static int ngot, nwant;

static void on_fin(void *ud, hp__recent_ent *e)
{
  (void)ud;
  assert_true(ngot < MAXK);
  snprintf(got[ngot++], sizeof(got[0]), "%u:%.*s:%lld:%lld", e->kid, (int)e->klen, e->key, e->first,
           e->last);
}

static int cmp(const void *a, const void *b)
{
  return strcmp(a, b);
}

static int model_done(const model *m, unsigned kid, const char *key)
{
  char id[48];
  int i;

  snprintf(id, sizeof(id), "%u:%s", kid, key);
  for (i = 0; i < m->ndone; i++)
    if (strcmp(m->done[i], id) == 0)
      return 1;
  return 0;
}

static int model_touch(model *m, unsigned kid, const char *key, long long row)
{
  int i;

  for (i = 0; i < m->n; i++)
    if (m->k[i].live && m->k[i].kid == kid && strcmp(m->k[i].key, key) == 0) {
      m->k[i].last = row;
      return 0;
    }
  assert_true(m->n < MAXK);
  m->k[m->n].kid = kid;
  snprintf(m->k[m->n].key, sizeof(m->k[0].key), "%s", key);
  m->k[m->n].first = m->k[m->n].last = row;
  m->k[m->n].live = 1;
  m->n++;
  if (model_done(m, kid, key))
    m->reappeared++;
  return 1;
}

static void model_finish_before(model *m, long long cutoff)
{
  int i;

  for (i = 0; i < m->n; i++)
    if (m->k[i].live && m->k[i].last < cutoff) {
      m->k[i].live = 0;
      snprintf(want[nwant++], sizeof(want[0]), "%u:%s:%lld:%lld", m->k[i].kid, m->k[i].key,
               m->k[i].first, m->k[i].last);
      if (!model_done(m, m->k[i].kid, m->k[i].key) && m->ndone < MAXK)
        snprintf(m->done[m->ndone++], sizeof(m->done[0]), "%u:%s", m->k[i].kid, m->k[i].key);
    }
}

static size_t model_live(const model *m)
{
  size_t n = 0;
  int i;

  for (i = 0; i < m->n; i++)
    n += (size_t)m->k[i].live;
  return n;
}

static void check_sets(void)
{
  int i;

  qsort(got, (size_t)ngot, sizeof(got[0]), cmp);
  qsort(want, (size_t)nwant, sizeof(want[0]), cmp);
  assert_int_equal(ngot, nwant);
  for (i = 0; i < ngot; i++)
    assert_string_equal(got[i], want[i]);
  ngot = nwant = 0;
}

static void test_matches_model(void **state)
{
  static model m;
  hp__recent r;
  hp__recent_ent *e;
  uint64_t x = 12345;
  long long row;
  int seedi;

  (void)state;
  for (seedi = 0; seedi < 4; seedi++) {
    long long window = seedi == 0 ? 4 : seedi == 1 ? 16 : 64;
    memset(&m, 0, sizeof(m));
    m.window = window;
    m.next_sweep = window;
    ngot = nwant = 0;
    hp__recent_init(&r, window, on_fin, NULL);
    for (row = 1; row <= 3000; row++) {
      char key[40];
      unsigned kid;
      int added = -1, want_added;
      x ^= x << 13, x ^= x >> 7, x ^= x << 17;
      kid = (unsigned)(x % 3);
      /* Mostly recent keys, now and then an old one coming back; some keys longer than the
       * inline buffer. */
      if (x % 5 == 0)
        snprintf(key, sizeof(key), "launch-with-a-long-name-%llu",
                 (unsigned long long)(x >> 8) % 40);
      else
        snprintf(key, sizeof(key), "%lld",
                 row / 3 - (long long)((x >> 16) % (seedi == 3 ? 200 : 6)));
      want_added = model_touch(&m, kid, key, row);
      assert_int_equal(hp__recent_touch(&r, kid, key, strlen(key), row, &e, &added), 0);
      assert_int_equal(added, want_added);
      assert_string_equal(e->key, key);
      if (row >= m.next_sweep) {
        m.next_sweep = row + window;
        model_finish_before(&m, row - window);
      }
      assert_int_equal(hp__recent_tick(&r, row), 0);
      check_sets();
      assert_int_equal(r.n, model_live(&m));
    }
    if (seedi == 3)
      assert_true(m.reappeared > 0); /* keys did come back after being finished */
    model_finish_before(&m, (long long)1 << 62);
    hp__recent_finish(&r);
    check_sets();
    /* New keys wait for their look-up in the finished set together (recent.c's pend): the count
     * is exact after the finish. */
    assert_int_equal(r.reappeared, m.reappeared);
  }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_matches_model),
  };

  return cmocka_run_group_tests(tests, NULL, NULL);
}
