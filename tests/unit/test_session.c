/*
 * Tests for lib/session/folder.c: where a session folder goes and how it is named. A session
 * folder must never be reused, so two sessions started in the same second get distinct folders,
 * and a link planted at its name is neither reused nor followed. Then how a file of a session
 * that cannot be written is reported (lib/session/folder.c, run.c): one message with the path and
 * the reason, exit 4, and a run whose stdout.txt was lost is not blamed on the metric pattern;
 * and the renderings (lib/report/write_all.c), each written even when the other fails; and the
 * <name>-latest link (hp__session_link_latest), whose failure carries its reason in the code.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analyze/results.h"
#include "hprun.h"
#include "report/write_all.h"
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/json/jsonread.h"

static char tmp[64];

static int setup(void **state)
{
  char *real;

  (void)state;
  strcpy(tmp, "/tmp/hprun-test-session-XXXXXX");
  if (mkdtemp(tmp) == NULL)
    return -1;
  /* Expected paths are resolved ones, whatever /tmp is a link to. */
  if ((real = realpath(tmp, NULL)) == NULL || strlen(real) >= sizeof(tmp))
    return -1;
  strcpy(tmp, real);
  free(real);
  return 0;
}

static int teardown(void **state)
{
  char cmd[128];

  (void)state;
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
  return system(cmd) == 0 ? 0 : -1;
}

static void assert_matches(const char *s, const char *pattern)
{
  regex_t re;
  int r;

  assert_int_equal(regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB), 0);
  r = regexec(&re, s, 0, NULL, 0);
  regfree(&re);
  if (r != 0)
    fail_msg("'%s' does not match /%s/", s, pattern);
}

static int is_dir(const char *p)
{
  struct stat st;

  return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The parent is created; later sessions of the same second get -2, -3. */
static void dir_make_never_reuses(void **state)
{
  char parent[128], pattern[192], want[256];
  char *a = NULL, *b = NULL, *c = NULL;
  int tries, fa = -1, fb = -1, fc = -1;

  (void)state;
  snprintf(parent, sizeof(parent), "%s/out/deeper", tmp);
  snprintf(pattern, sizeof(pattern), "^%s/va-[0-9]{8}-[0-9]{6}$", parent);
  for (tries = 0; tries < 3; tries++) {
    assert_int_equal(hp__session_dir_make(parent, "va", &a, &fa, NULL), 0);
    assert_int_equal(hp__session_dir_make(parent, "va", &b, &fb, NULL), 0);
    assert_int_equal(hp__session_dir_make(parent, "va", &c, &fc, NULL), 0);
    assert_true(fa >= 0 && fb >= 0 && fc >= 0);
    assert_true(fcntl(fa, F_GETFD) & FD_CLOEXEC); /* a run's child never inherits it */
    close(fa);
    close(fb);
    close(fc);
    assert_matches(a, pattern);
    assert_true(is_dir(a) && is_dir(b) && is_dir(c));
    assert_string_not_equal(a, b);
    assert_string_not_equal(b, c);
    /* All three in the same second: the suffixes are certain. Else try again. */
    if (strncmp(a, c, strlen(a)) == 0)
      break;
    free(a);
    free(b);
    free(c);
    a = b = c = NULL;
  }
  assert_non_null(a);
  snprintf(want, sizeof(want), "%s-2", a);
  assert_string_equal(b, want);
  snprintf(want, sizeof(want), "%s-3", a);
  assert_string_equal(c, want);
  free(a);
  free(b);
  free(c);
}

/* --output is relative to where hprun started; the plan's `output` to the plan's folder. */
static void parent_folder(void **state)
{
  hp_run_opts opts;
  hp_plan *plan = NULL;
  hp_diags d;
  char want[320], cwd[256], *p;
  const char *text = "app: {command: ./app}\nmetrics: [m]\npasses: [normal]\n";

  (void)state;
  hp_diags_init(&d);
  assert_int_equal(hp_plan_load_string("t.yaml", tmp, text, strlen(text), &plan, &d), 0);
  hp_diags_free(&d);
  memset(&opts, 0, sizeof(opts));
  p = hp__session_parent(plan, &opts);
  snprintf(want, sizeof(want), "%s/hprun-out", tmp);
  assert_string_equal(p, want);
  free(p);

  assert_non_null(getcwd(cwd, sizeof(cwd)));
  opts.output = "no-such-folder/x";
  p = hp__session_parent(plan, &opts);
  snprintf(want, sizeof(want), "%s/no-such-folder/x", cwd);
  assert_string_equal(p, want);
  free(p);

  /* An existing folder is recorded without `..`. */
  snprintf(want, sizeof(want), "%s/a", tmp);
  assert_int_equal(mkdir(want, 0755), 0);
  snprintf(cwd, sizeof(cwd), "%s/a/../a", tmp);
  opts.output = cwd;
  p = hp__session_parent(plan, &opts);
  assert_string_equal(p, want);
  free(p);
  hp_plan_free(plan);
}

static void now_iso_format(void **state)
{
  char *t = hp__session_now_iso();

  (void)state;
  assert_non_null(t);
  assert_matches(t, "^20[0-9]{2}-[01][0-9]-[0-3][0-9]T[0-2][0-9]:[0-5][0-9]:[0-6][0-9]Z$");
  free(t);
}

/* A link planted at the name a session would get is neither reused nor followed: the session
 * takes the next name. The link is planted for this second and the next, so the call lands on one
 * of them unless two seconds pass (then it tries again). */
static void dir_make_skips_planted_link(void **state)
{
  char parent[128], outside[128], stamp[32], link[256];
  char *got = NULL;
  time_t t;
  struct tm tm;
  struct stat st;
  int tries, k, fd = -1;

  (void)state;
  snprintf(parent, sizeof(parent), "%s/out", tmp);
  snprintf(outside, sizeof(outside), "%s/outside", tmp);
  assert_int_equal(mkdir(parent, 0755), 0);
  assert_int_equal(mkdir(outside, 0755), 0);
  for (tries = 0; tries < 3; tries++) {
    t = time(NULL);
    for (k = 0; k < 2; k++) {
      time_t tk = t + k;
      localtime_r(&tk, &tm);
      strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
      snprintf(link, sizeof(link), "%s/va-%s", parent, stamp);
      if (lstat(link, &st) != 0)
        assert_int_equal(symlink(outside, link), 0);
    }
    assert_int_equal(hp__session_dir_make(parent, "va", &got, &fd, NULL), 0);
    close(fd);
    if (strlen(got) > 2 && strcmp(got + strlen(got) - 2, "-2") == 0)
      break;
    rmdir(got); /* a second later than both links: plant again */
    free(got);
    got = NULL;
  }
  assert_non_null(got);
  assert_int_equal(lstat(got, &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  assert_int_equal(rmdir(outside), 0); /* still empty: nothing was made through a link */
  free(got);
}

/* A parent that is no folder: one message naming it, with the system's reason. */
static void dir_make_reports_the_path(void **state)
{
  char parent[128], want[256];
  char *got = (char *)1;
  hp_diags d;
  int fd = 7;

  (void)state;
  snprintf(parent, sizeof(parent), "%s/file", tmp);
  assert_int_equal(hp__write_file(parent, "x", 1, 1), 0);
  hp_diags_init(&d);
  assert_int_equal(hp__session_dir_make(parent, "va", &got, &fd, &d), HP_EIO);
  assert_null(got);
  assert_int_equal(fd, -1);
  assert_int_equal(d.count, 1);
  snprintf(want, sizeof(want), "cannot create %s: Not a directory", parent);
  assert_string_equal(d.head->msg, want);
  assert_string_equal(d.head->file, "hprun");
  assert_int_equal(d.head->level, HP_DIAG_ERROR);
  hp_diags_free(&d);
}

/* A context just good enough for the reporting functions: a session record with a folder. */
typedef struct io_fixture {
  hp__session_ctx c;
  hp_session s;
  hp_diags d;
} io_fixture;

static void io_fixture_init(io_fixture *f, const char *dir)
{
  memset(f, 0, sizeof(*f));
  hp_diags_init(&f->d);
  f->s.dir = (char *)dir;
  f->c.s = &f->s;
  f->c.diags = &f->d;
  f->c.dirfd = -1;
}

static void io_fixture_free(io_fixture *f)
{
  free(f->c.io_message);
  hp_diags_free(&f->d);
}

static void io_error_reported_once(void **state)
{
  io_fixture f;
  const hp_diag *p;

  (void)state;
  io_fixture_init(&f, "/s");
  assert_int_equal(hp__session_io_error(&f.c, "create", "pass/2", ELOOP), HP_EIO);
  assert_int_equal(f.c.io_failed, 1);
  assert_string_equal(f.c.io_message,
                      "cannot create /s/pass/2: a symbolic link is in the way "
                      "(hprun never follows one there)");
  assert_int_equal(hp__session_io_error(&f.c, "write", "/s/summary.json", ENOSPC), HP_EIO);
  /* The first failure is the session's error; each is one message. */
  assert_string_equal(f.c.io_message,
                      "cannot create /s/pass/2: a symbolic link is in the way "
                      "(hprun never follows one there)");
  assert_int_equal(f.d.count, 2);
  p = f.d.head;
  assert_string_equal(p->msg,
                      "cannot create /s/pass/2: a symbolic link is in the way (hprun "
                      "never follows one there)");
  assert_string_equal(p->next->msg, "cannot write /s/summary.json: No space left on device");
  assert_string_equal(p->next->file, "hprun");
  io_fixture_free(&f);
}

/* A run whose stdout.txt lost bytes fails with an error that says so, and the advice names it
 * instead of the metric pattern; a lost stderr.txt is reported but leaves the run alone. */
static void lost_stdout_is_not_blamed_on_the_pattern(void **state)
{
  io_fixture f;
  hp_session *s = calloc(1, sizeof(*s));
  hp_pass_result *pr;
  hp_run *run;

  (void)state;
  assert_non_null(s);
  s->dir = hp__strdup("/s");
  s->warn = 0.05;
  s->fail = -1;
  s->alpha = 0.05;
  s->npasses = 1;
  s->passes = calloc(1, sizeof(*s->passes));
  pr = &s->passes[0];
  assert_int_equal(hp__pass_result_init(pr, 1), 0);
  pr->name = hp__strdup("normal");
  pr->mode = hp__strdup("normal");
  pr->metrics[0].name = hp__strdup("t");
  pr->is_baseline = 1;
  pr->runs = calloc(2, sizeof(*pr->runs));
  run = &pr->runs[pr->nruns++];
  run->index = 1;
  run->dir = hp__strdup("normal/1");
  run->values = malloc(sizeof(double));
  run->values[0] = NAN; /* nothing was read from the cut file */

  io_fixture_init(&f, "/s");
  f.c.s = s;
  assert_int_equal(hp__run_lost_output(&f.c, run, "/s/normal/1/stderr.txt", EIO), HP_EIO);
  assert_null(run->error);
  assert_int_equal(hp__run_lost_output(&f.c, run, "/s/normal/1/stdout.txt", ENOSPC), HP_EIO);
  assert_string_equal(run->error,
                      "its output could not be saved (cannot write "
                      "/s/normal/1/stdout.txt: No space left on device), so its "
                      "metrics were not read");
  assert_int_equal(f.d.count, 2);
  assert_string_equal(f.d.head->msg, "cannot write /s/normal/1/stderr.txt: Input/output error");
  assert_string_equal(f.d.head->next->msg,
                      "cannot write /s/normal/1/stdout.txt: No space left on device");
  assert_int_equal(f.c.io_failed, 1);

  assert_int_equal(hp__session_analyze(s, NULL), 0);
  assert_int_equal(pr->flag, HP_FLAG_FAILED);
  assert_non_null(pr->advice);
  assert_non_null(strstr(pr->advice, "could not be saved"));
  assert_non_null(strstr(pr->advice, "/s/normal/1/stdout.txt: No space left on device"));
  assert_null(strstr(pr->advice, "metric pattern"));
  io_fixture_free(&f);
  hp_session_free(s);
}

/* A session with one baseline pass of one run, in folder dir, for the renderings. */
static hp_session *small_session(const char *dir)
{
  hp_session *s = calloc(1, sizeof(*s));
  hp_pass_result *pr;

  assert_non_null(s);
  s->name = hp__strdup("va");
  s->dir = hp__strdup(dir);
  s->started = hp__strdup("2026-01-02T03:04:05Z");
  s->finished = hp__strdup("2026-01-02T03:05:00Z");
  s->order = hp__strdup("interleaved");
  s->repeat = 1;
  s->complete = 1;
  s->warn = 0.05;
  s->fail = -1;
  s->alpha = 0.05;
  s->npasses = 1;
  s->passes = calloc(1, sizeof(*s->passes));
  pr = &s->passes[0];
  assert_int_equal(hp__pass_result_init(pr, 1), 0);
  pr->name = hp__strdup("normal");
  pr->mode = hp__strdup("normal");
  pr->metrics[0].name = hp__strdup("t");
  pr->is_baseline = 1;
  pr->runs = calloc(1, sizeof(*pr->runs));
  pr->runs[0].index = 1;
  pr->runs[0].dir = hp__strdup("normal/1");
  pr->runs[0].ok = 1;
  pr->runs[0].values = malloc(sizeof(double));
  pr->runs[0].values[0] = 1.25;
  pr->nruns = 1;
  assert_int_equal(hp__session_analyze(s, NULL), 0);
  return s;
}

static int is_kind(const char *path, mode_t kind)
{
  struct stat st;

  return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == kind;
}

/* report.md cannot be written (a folder is in its way): summary.json is written all the same,
 * with the measured value; then the other way round, with a link planted at summary.json's
 * temporary name, which is not followed. */
static void renderings_are_written_independently(void **state)
{
  char dir[128], path[256], outside[128], want[768];
  hp_session *s;
  hp_diags d;
  unsigned written = 0;
  int fd;
  char *text = NULL;
  hp__jv *root = NULL;
  char err[128];
  size_t len;

  (void)state;
  snprintf(dir, sizeof(dir), "%s/s1", tmp);
  assert_int_equal(mkdir(dir, 0755), 0);
  snprintf(path, sizeof(path), "%s/report.md", dir);
  assert_int_equal(mkdir(path, 0755), 0);
  s = small_session(dir);
  hp_diags_init(&d);
  assert_int_equal(hp__dir_open(dir, &fd), 0);
  assert_int_equal(hp__report_write_all_at(s, fd, &d, &written), HP_EIO);
  close(fd);
  assert_int_equal(written, HP_WROTE_SUMMARY | HP_WROTE_HTML);
  assert_int_equal(d.count, 1);
  snprintf(want, sizeof(want), "cannot write %s/report.md: Is a directory", dir);
  assert_string_equal(d.head->msg, want);
  snprintf(path, sizeof(path), "%s/summary.json", dir);
  assert_int_equal(hp__read_file(path, &text, &len), 0);
  assert_int_equal(hp__jv_parse(text, len, &root, err, sizeof(err)), 0);
  assert_true(hp__jv_num(hp__jv_path(root, "passes/0/runs/0/values/t")) == 1.25);
  hp__jv_free(root);
  free(text);
  hp_diags_free(&d);
  hp_session_free(s);

  snprintf(dir, sizeof(dir), "%s/s2", tmp);
  snprintf(outside, sizeof(outside), "%s/sentinel", tmp);
  assert_int_equal(mkdir(dir, 0755), 0);
  assert_int_equal(hp__write_file(outside, "sentinel", 8, 1), 0);
  snprintf(path, sizeof(path), "%s/summary.json.tmp.%ld", dir, (long)getpid());
  assert_int_equal(symlink(outside, path), 0);
  s = small_session(dir);
  hp_diags_init(&d);
  written = 0;
  assert_int_equal(hp__dir_open(dir, &fd), 0);
  assert_int_equal(hp__report_write_all_at(s, fd, &d, &written), HP_EEXIST);
  close(fd);
  assert_int_equal(written, HP_WROTE_REPORT | HP_WROTE_HTML);
  assert_int_equal(d.count, 1);
  snprintf(want, sizeof(want),
           "cannot write %s/summary.json: its temporary name %s exists already (hprun never "
           "reuses or follows what it did not create)",
           dir, path);
  assert_string_equal(d.head->msg, want);
  assert_true(is_kind(path, S_IFLNK));
  snprintf(path, sizeof(path), "%s/summary.json", dir);
  assert_false(is_kind(path, S_IFREG));
  snprintf(path, sizeof(path), "%s/report.md", dir);
  assert_true(is_kind(path, S_IFREG));
  assert_int_equal(hp__read_file(outside, &text, NULL), 0);
  assert_string_equal(text, "sentinel");
  free(text);
  hp_diags_free(&d);
  hp_session_free(s);
}

/* <name>-latest points at the newest complete session, by a relative link; a failure is a code
 * that holds the system's reason, which the caller words (errno is not read afterwards). */
static void link_latest_points_and_reports(void **state)
{
  char dir[128], link[128], target[64];
  ssize_t n;
  int r;

  (void)state;
  assert_int_equal(hp__session_link_latest("no-slash", "app"), HP_EINVAL);
  snprintf(dir, sizeof(dir), "%s/missing/app-1", tmp);
  r = hp__session_link_latest(dir, "app");
  assert_int_equal(hp__fs_kind(r), HP_EIO);
  assert_int_equal(hp__fs_errno(r), ENOENT);
  snprintf(link, sizeof(link), "%s/app-latest", tmp);
  snprintf(dir, sizeof(dir), "%s/app-1", tmp);
  assert_int_equal(hp__session_link_latest(dir, "app"), 0);
  snprintf(dir, sizeof(dir), "%s/app-2", tmp);
  assert_int_equal(hp__session_link_latest(dir, "app"), 0);
  n = readlink(link, target, sizeof(target) - 1);
  assert_int_equal(n, 5);
  target[n] = '\0';
  assert_string_equal(target, "app-2");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(dir_make_never_reuses, setup, teardown),
      cmocka_unit_test_setup_teardown(parent_folder, setup, teardown),
      cmocka_unit_test(now_iso_format),
      cmocka_unit_test_setup_teardown(dir_make_skips_planted_link, setup, teardown),
      cmocka_unit_test_setup_teardown(dir_make_reports_the_path, setup, teardown),
      cmocka_unit_test(io_error_reported_once),
      cmocka_unit_test(lost_stdout_is_not_blamed_on_the_pattern),
      cmocka_unit_test_setup_teardown(renderings_are_written_independently, setup, teardown),
      cmocka_unit_test_setup_teardown(link_latest_points_and_reports, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
