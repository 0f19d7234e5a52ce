/*
 * Unit tests for the profile writers and their table model (lib/profile/tables/table.h, tables*.c,
 * out_*.c): the descriptions are well formed, one profile renders as expected in each format,
 * JSON keys and CSV headers come from the same column lists, and the per-format special cases
 * (name cut, Markdown escaping, CSV quoting, --top) hold. Run from the repository root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profile/tables/out.h"
#include "profile/tables/table.h"
#include "util/json/json.h"
#include "util/json/jsonread.h"

#define FX "tests/fixtures/profile/"

static hp_profile *load(const char *path)
{
  hp_profile *p;
  hp_diags d;

  hp_diags_init(&d);
  assert_int_equal(hp_profile_new(&p), 0);
  assert_int_equal(hp_profile_add_path(p, path, &d), 0);
  hp_diags_free(&d);
  return p;
}

/* A negative width asks for full names (--wide). */
static char *render(const hp_profile *p, hp_format f, int top, int width)
{
  hp_profile_opts o = {0, 0, 0, 0, NULL};
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);

  o.top = top;
  o.name_width = width < 0 ? 0 : width;
  o.wide = width < 0;
  assert_non_null(fp);
  assert_int_equal(hp_profile_write(p, fp, f, &o), 0);
  fclose(fp);
  return buf;
}

static hp__jv *parse_json(const char *text)
{
  hp__jv *v = NULL;
  char err[128];

  assert_int_equal(hp__jv_parse(text, strlen(text), &v, err, sizeof(err)), 0);
  return v;
}

/* The number at `path` of a JSON tree is `want` (to 1e-12 relative). */
static void assert_num(const hp__jv *v, const char *path, double want)
{
  double d = hp__jv_num(hp__jv_path(v, path));

  if (!(fabs(d - want) <= 1e-12 * fabs(want)))
    fail_msg("%s is %.17g, not %.17g", path, d, want);
}

static void assert_contains(const char *text, const char *want)
{
  if (strstr(text, want) == NULL)
    fail_msg("expected to find\n%s\nin\n%s", want, text);
}

/* Every description: the top-level tables, the files table, and their children. */
static size_t all_tables(const hp__table **out)
{
  size_t i, n = 0;

  out[n++] = &hp__files_table;
  for (i = 0; i < hp__ntables; i++) {
    out[n++] = hp__tables[i];
    if (hp__tables[i]->child)
      out[n++] = hp__tables[i]->child;
  }
  return n;
}

/* ---------------------------------------------------------------------------------------------- */

static void test_descriptions_are_well_formed(void **state)
{
  const hp__table *t[64];
  size_t n = all_tables(t), i, k, m;
  unsigned bit;

  assert_int_equal(hp__ntables, 17);
  for (i = 0; i < n; i++) {
    assert_non_null(t[i]->key);
    assert_true(t[i]->ncols > 0);
    assert_non_null(t[i]->open);
    for (k = 0; k < t[i]->ncols; k++) {
      const hp__col *c = &t[i]->cols[k];
      assert_non_null(c->key);
      assert_true(c->in != 0);
      /* A cell is a member inside the row's struct, whose size the table gives, or get's. */
      if (c->flags & HP__C_AT)
        assert_true(c->field >= 0 && (size_t)c->field < t[i]->size);
      else
        assert_non_null(t[i]->get);
      /* Only a member that is a whole number can mark a missing value by its sign. */
      if (c->flags & HP__C_OPT)
        assert_true((c->flags & HP__C_AT) && c->type == HP__V_INT);
      /* A number shown in text needs a format. */
      if (c->type == HP__V_NUM && (c->in & HP__IN_TEXT) && !(c->flags & HP__C_BYTES))
        assert_non_null(c->tfmt);
      /* An object is JSON-only and its members follow it. */
      if (c->type == HP__V_OBJ)
        assert_int_equal(c->in, HP__IN_JSON);
      if (c->flags & HP__C_MEMBER)
        assert_true(
            k > 0 &&
            (t[i]->cols[k - 1].type == HP__V_OBJ || (t[i]->cols[k - 1].flags & HP__C_MEMBER)));
      /* JSON keys are unique among a row's members; CSV headers within the table. */
      for (m = 0; m < k; m++) {
        const hp__col *o = &t[i]->cols[m];
        if ((c->in & o->in & HP__IN_JSON) && (c->flags & HP__C_MEMBER) == (o->flags & HP__C_MEMBER))
          assert_string_not_equal(c->key, o->key);
        if (c->in & o->in & HP__IN_CSV)
          assert_string_not_equal(hp__col_csv(c), hp__col_csv(o));
      }
    }
    if (t[i]->flags & HP__TF_SECTIONS) {
      assert_non_null(t[i]->child);
      assert_non_null(t[i]->noun);
    }
  }
  /* Every files[].tables bit names exactly one table. */
  for (bit = HP__TB_API; bit <= HP__TB_TIMELINE; bit <<= 1)
    assert_non_null(hp__table_by_bit(bit));
  assert_null(hp__table_by_bit(HP__TB_TIMELINE << 1));
}

/* The article's vector_add: one profile, checked in each format against literal text. */
static void test_vector_add_in_each_format(void **state)
{
  hp_profile *p = load(FX "hipprof/vector_add");
  char *text = render(p, HP_FMT_TEXT, 0, 0), *cut = render(p, HP_FMT_TEXT, 0, 12);
  char *md = render(p, HP_FMT_MD, 0, 0), *csv = render(p, HP_FMT_CSV, 0, 0);
  char *json = render(p, HP_FMT_JSON, 0, 0);
  hp__jv *v = parse_json(json);

  assert_contains(text,
                  "\n[Kernel summary]\n"
                  "name        calls  total_ms  average_us  percent\n"
                  "vector_add    120  2.255999      18.799  100.000\n");
  assert_contains(text,
                  "\nhost     170.06 MB  178320835  "
                  "tests/fixtures/profile/hipprof/vector_add/memusage/stdout.txt:3\n");
  /* Kernels go by short names (no parameter list), which fit the width; --wide shows them whole
   * and uncut (the PMC field table and the stack kernel). */
  assert_contains(cut, "\nkernel             vector_add\n");
  assert_contains(cut, "\nvector_add       120  vector_add()\n");
  free(cut);
  cut = render(p, HP_FMT_TEXT, 0, -1);
  assert_contains(cut,
                  "\nkernel             vector_add(float const*, float const*, float*, int)\n");
  assert_contains(cut,
                  "\nvector_add(float const*, float const*, float*, int)       120  "
                  "vector_add()\n");

  assert_contains(md,
                  "\n| name | calls | total_ms | average_us | percent |\n"
                  "| --- | ---: | ---: | ---: | ---: |\n"
                  "| `vector_add` | 120 | 2.255999 | 18.799 | 100.000 |\n");
  assert_contains(md, "\n| `kernel` | vector_add |\n");
  assert_contains(md,
                  "\n| `device0` | 92.00 KB | 94208 | "
                  "tests/fixtures/profile/hipprof/vector_add/memusage/stdout.txt:4 |\n");

  assert_contains(csv,
                  "\n# table: kernels\n"
                  "name,calls,total_ns,avg_ns,min_ns,max_ns,percent,category\n"
                  "vector_add,120,2255999,18799,,,100,vector_add\n");
  assert_contains(csv,
                  "\n# table: stacks\nkernel,launches,user_frame,frame_launches\n"
                  "\"vector_add(float const*, float const*, float*, int)\",120,vector_add(),"
                  "120\n");
  assert_contains(csv,
                  "\n\"vector_add(float const*, float const*, float*, int)\",SQ_WAVES,"
                  "1966080,120,16384\n");

  assert_num(v, "kernels/0/total_ms", 2.255999);
  assert_num(v, "kernels/0/average_us", 18.799);
  assert_null(hp__jv_get(hp__jv_path(v, "kernels/0"), "min_us")); /* text-only */
  assert_int_equal(hp__jv_type_of(hp__jv_path(v, "kernels/0/min_ns")), HP__JV_NULL);
  assert_string_equal(hp__jv_str(hp__jv_path(v, "kernels/0/category")), "vector_add");
  assert_num(v, "pmc/0/kernel_time_ns/n", 120);
  assert_num(v, "pmc/0/grid_size/0", 1048576);
  assert_string_equal(hp__jv_str(hp__jv_path(v, "stacks/0/origins/0/frame")), "vector_add()");
  assert_num(v, "leakcheck/entries/1/bytes", 94208);
  assert_num(v, "counts/kernels", 1);

  hp__jv_free(v);
  free(json);
  free(csv);
  free(md);
  free(cut);
  free(text);
  hp_profile_free(p);
}

/* The header line after `# table: NAME`, or fail. */
static char *csv_header(const char *csv, const char *name)
{
  char want[128], *h;
  const char *s, *e;

  snprintf(want, sizeof(want), "# table: %s\n", name);
  s = strstr(csv, want);
  if (s == NULL)
    fail_msg("no CSV table %s", name);
  s += strlen(want);
  e = strchr(s, '\n');
  h = strndup(s, (size_t)(e - s));
  assert_non_null(h);
  return h;
}

/* The CSV header a description promises: its CSV columns (only keys when `keys`), then the
 * child's when `child`. */
static void expected_csv(const hp__table *t, int keys, int child, char *out, size_t cap)
{
  size_t k;

  out[0] = '\0';
  for (k = 0; k < t->ncols; k++)
    if ((t->cols[k].in & HP__IN_CSV) && (!keys || (t->cols[k].flags & HP__C_KEY)))
      snprintf(out + strlen(out), cap - strlen(out), "%s%s", out[0] ? "," : "",
               hp__col_csv(&t->cols[k]));
  if (child)
    for (k = 0; k < t->child->ncols; k++)
      if (t->child->cols[k].in & HP__IN_CSV)
        snprintf(out + strlen(out), cap - strlen(out), ",%s", hp__col_csv(&t->child->cols[k]));
}

/* Row 0 of a JSON table has exactly the JSON columns of the description, in order, and its
 * child array last. */
static void check_json_row(const hp__table *t, const hp__jv *row)
{
  size_t k, m = 0;

  assert_int_equal(hp__jv_type_of(row), HP__JV_OBJ);
  for (k = 0; k < t->ncols; k++) {
    if (!(t->cols[k].in & HP__IN_JSON) || (t->cols[k].flags & HP__C_MEMBER))
      continue;
    assert_string_equal(hp__jv_key_at(row, m), t->cols[k].key);
    m++;
  }
  if (t->child) {
    assert_string_equal(hp__jv_key_at(row, m), t->child->key);
    if (hp__jv_len(hp__jv_at(row, m)) > 0)
      check_json_row(t->child, hp__jv_at(hp__jv_at(row, m), 0));
    m++;
  }
  assert_int_equal(hp__jv_len(row), m);
}

/* The fixtures of tests/fixtures/profile/ have no Kineto trace, the one format of the CPU-op and
 * timeline tables: a real one is added (tests/fixtures/real/kineto/). */
static hp_profile *load_kineto(hp_profile *p)
{
  assert_int_equal(
      hp_profile_add_path(
          p, "tests/fixtures/real/kineto/hta-mi250-rocm/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
          NULL),
      0);
  return p;
}

/* Every fixture at once fills every table: each table's JSON keys and CSV header must come
 * from its one column list. */
static void test_json_and_csv_follow_the_columns(void **state)
{
  hp_profile *p = load_kineto(load(FX));
  char *csv = render(p, HP_FMT_CSV, 0, 0), *json = render(p, HP_FMT_JSON, 0, 0), want[1024];
  hp__jv *v = parse_json(json);
  const hp__table *t[64];
  size_t n = all_tables(t), i;

  for (i = 0; i < n; i++) {
    const hp__table *tb = t[i];
    const hp__jv *rows = hp__jv_get(v, tb->key);
    char *h;
    if (tb == hp__tab_pmc.child || tb == hp__tab_stacks.child || tb == hp__tab_ncu.child)
      continue; /* children: checked through their parents */
    expected_csv(tb, 0, tb->child && !tb->child->csv_table, want, sizeof(want));
    h = csv_header(csv, tb->key);
    assert_string_equal(h, want);
    free(h);
    if (tb->child && tb->child->csv_table) {
      expected_csv(tb, 1, 1, want, sizeof(want));
      h = csv_header(csv, tb->child->csv_table);
      assert_string_equal(h, want);
      free(h);
    }
    if (tb->note)
      rows = hp__jv_get(rows, "entries");
    if (hp__jv_len(rows) == 0)
      fail_msg("the fixtures have no %s rows", tb->key);
    check_json_row(tb, hp__jv_at(rows, 0));
  }
  /* The PMC kernel time object holds its member columns. */
  assert_string_equal(hp__jv_key_at(hp__jv_path(v, "pmc/0/kernel_time_ns"), 0), "n");
  assert_int_equal(hp__jv_len(hp__jv_path(v, "pmc/0/kernel_time_ns")), 5);

  hp__jv_free(v);
  free(json);
  free(csv);
  hp_profile_free(p);
}

/* Markdown escaping, CSV quoting, code spans with backticks, and --top, on names written here. */
static void test_special_names_and_top(void **state)
{
  char dir[] = "/tmp/hprun-test-out-XXXXXX", path[256];
  FILE *fp;
  hp_profile *p;
  char *md, *csv, *text, *mdtop;

  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof(path), "%s/result_1.kernel.csv", dir);
  fp = fopen(path, "w");
  assert_non_null(fp);
  fputs("Name,Calls,TotalDurationNs,AverageNs,Percentage\n"
        "\"a|b\",1,400,400,40\n"
        "\"x`y\",1,300,300,30\n"
        "\"q,\"\"r\"\"\",1,200,200,20\n"
        "\"#hash\",1,100,100,10\n",
        fp);
  fclose(fp);
  p = load(dir);
  md = render(p, HP_FMT_MD, 0, 0);
  csv = render(p, HP_FMT_CSV, 0, 0);
  text = render(p, HP_FMT_TEXT, 1, 0);
  mdtop = render(p, HP_FMT_MD, 2, 0);

  assert_contains(md, "\n| `a\\|b` | 1 | 0.000400 | 0.400 | 40.000 |\n");
  assert_contains(md, "\n| `` x`y `` | 1 | 0.000300 | 0.300 | 30.000 |\n");
  assert_contains(csv, "\na|b,1,400,400,,,40,other\n");
  assert_contains(csv, "\n\"q,\"\"r\"\"\",1,200,200,,,20,other\n");
  assert_contains(csv, "\n\"#hash\",1,100,100,,,10,other\n");
  assert_contains(text,
                  "\na|b       1  0.000400       0.400   40.000\n"
                  "(3 more rows; --top 0 shows all)\n");
  assert_contains(mdtop, "| `` x`y `` | 1 | 0.000300 | 0.300 | 30.000 |\n\n2 of 4 rows shown.\n");
  /* Categories are not cut by --top. */
  assert_contains(text, "\nother         4  0.001000  100.000\n");

  free(mdtop);
  free(text);
  free(csv);
  free(md);
  hp_profile_free(p);
  assert_int_equal(unlink(path), 0);
  assert_int_equal(rmdir(dir), 0);
}

/* The JSON a session embeds is the same object `summarize --format json` writes. */
static void test_embedded_json_is_the_document(void **state)
{
  hp_profile *p = load(FX "ncu/details");
  char *doc = render(p, HP_FMT_JSON, 0, 0);
  hp__json j;

  hp__json_init(&j, 1);
  assert_int_equal(hp__profile_json(p, &j, NULL), 0);
  assert_int_equal(hp__json_end(&j), 0);
  assert_string_equal(j.out.data, doc);
  assert_contains(doc, "\"block_size_varies\": false");
  hp__json_free(&j);
  free(doc);
  hp_profile_free(p);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_descriptions_are_well_formed),
      cmocka_unit_test(test_vector_add_in_each_format),
      cmocka_unit_test(test_json_and_csv_follow_the_columns),
      cmocka_unit_test(test_special_names_and_top),
      cmocka_unit_test(test_embedded_json_is_the_document),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
