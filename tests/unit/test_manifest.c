/*
 * Tests for lib/session/manifest.c (manifest.json) and the plan copy beside it.
 *
 * The plan's SHA-256 is a literal computed outside hprun, with the sha256sum tool:
 *   printf 'name: mt\napp: {command: [./app, --n, "3"]}\nmetrics: [m]\npasses: [normal]\n' |
 *     sha256sum
 * The other members are checked against values the test sets itself: the runs' folders and
 * command lines, a fake profiler's --version answer and exit status, and an environment whose
 * GPU-related variables must be kept and the rest left out. Secrets (by the names in
 * util/base/secret.h, checked here name by name) are stored as "<redacted>", and the manifest, like
 * every file of a session, is never written through a link planted at its temporary name.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hprun.h"
#include "session/manifest.h"
#include "session/session.h"
#include "util/sys/fsutil.h"
#include "util/json/jsonread.h"
#include "util/base/secret.h"

#define PLAN_TEXT "name: mt\napp: {command: [./app, --n, \"3\"]}\nmetrics: [m]\npasses: [normal]\n"
#define PLAN_SHA256 "1c3f08102de62a9536f41cf017e2f7738bfd55e6d207f9ed6ad2178fe7b114a3"
#define EMPTY_SHA256 "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

typedef struct fixture {
  char *gpu;    /* the GPU name hp__manifest_write hands back */
  char dir[64]; /* a fresh temporary folder: the plan's folder and the session folder */
  int dirfd;    /* that folder, open as a session's is */
  hp_plan *plan;
  uv_loop_t loop;
} fixture;

static int setup(void **state)
{
  fixture *f = calloc(1, sizeof(*f));
  hp_diags d;

  if (f == NULL)
    return -1;
  strcpy(f->dir, "/tmp/hprun-test-manifest-XXXXXX");
  if (mkdtemp(f->dir) == NULL || uv_loop_init(&f->loop) != 0 ||
      hp__dir_open(f->dir, &f->dirfd) != 0)
    return -1;
  hp_diags_init(&d);
  if (hp_plan_load_string("mt.yaml", f->dir, PLAN_TEXT, strlen(PLAN_TEXT), &f->plan, &d) != 0)
    return -1;
  hp_diags_free(&d);
  *state = f;
  return 0;
}

static int teardown(void **state)
{
  fixture *f = *state;
  char cmd[128];

  hp_plan_free(f->plan);
  free(f->gpu);
  close(f->dirfd);
  uv_run(&f->loop, UV_RUN_DEFAULT);
  uv_loop_close(&f->loop);
  snprintf(cmd, sizeof(cmd), "rm -rf '%s'", f->dir);
  if (system(cmd) != 0)
    return -1;
  free(f);
  return 0;
}

/* Reads and parses <dir>/<name> as JSON; fails the test when it cannot. */
static hp__jv *read_json(const char *dir, const char *name)
{
  char path[256], err[128];
  char *text = NULL;
  size_t len = 0;
  hp__jv *root = NULL;

  snprintf(path, sizeof(path), "%s/%s", dir, name);
  assert_int_equal(hp__read_file(path, &text, &len), 0);
  if (hp__jv_parse(text, len, &root, err, sizeof(err)) != 0)
    fail_msg("%s: %s", path, err);
  free(text);
  return root;
}

static const char *jstr(const hp__jv *root, const char *path)
{
  const char *s = hp__jv_str(hp__jv_path(root, path));

  if (s == NULL)
    fail_msg("manifest.json: no string at %s", path);
  return s;
}

/* The plan copy holds the plan's exact bytes, and the manifest's hash is theirs. */
static void plan_copy_and_hash(void **state)
{
  fixture *f = *state;
  hp_session s;
  char path[256], *copy = NULL;
  size_t len = 0;
  hp__jv *m;
  int r;

  memset(&s, 0, sizeof(s));
  s.name = "mt";
  s.dir = f->dir;
  assert_int_equal(hp__session_copy_plan(f->plan, f->dirfd), 0);
  snprintf(path, sizeof(path), "%s/plan.yaml", f->dir);
  assert_int_equal(hp__read_file(path, &copy, &len), 0);
  assert_int_equal(len, strlen(PLAN_TEXT));
  assert_memory_equal(copy, PLAN_TEXT, len);
  free(copy);
  /* A session folder is never reused: the copy is never overwritten. */
  r = hp__session_copy_plan(f->plan, f->dirfd);
  assert_int_equal(hp__fs_kind(r), HP_EEXIST);
  assert_int_equal(hp__fs_errno(r), EEXIST);

  assert_int_equal(hp__manifest_write(&f->loop, f->plan, &s, NULL, NULL, f->dirfd, &f->gpu), 0);
  m = read_json(f->dir, "manifest.json");
  assert_string_equal(jstr(m, "plan/sha256"), PLAN_SHA256);
  assert_string_equal(jstr(m, "plan/file"), "mt.yaml");
  assert_string_equal(jstr(m, "plan/copy"), "plan.yaml");
  hp__jv_free(m);
}

/* A plan without text (never the case for a loaded plan) hashes as the empty string. */
static void plan_without_text(void **state)
{
  fixture *f = *state;
  hp_plan p = *f->plan;
  hp_session s;
  hp__jv *m;

  memset(&s, 0, sizeof(s));
  s.dir = f->dir;
  p.text = NULL;
  p.text_len = 0;
  assert_int_equal(hp__manifest_write(&f->loop, &p, &s, NULL, NULL, f->dirfd, &f->gpu), 0);
  m = read_json(f->dir, "manifest.json");
  assert_string_equal(jstr(m, "plan/sha256"), EMPTY_SHA256);
  hp__jv_free(m);
}

/* Writes an executable script <dir>/<name> with the given body. */
static void write_script(const char *dir, const char *name, const char *body)
{
  char path[256];

  snprintf(path, sizeof(path), "%s/%s", dir, name);
  assert_int_equal(hp__write_file(path, body, strlen(body), 0), 0);
  assert_int_equal(chmod(path, 0755), 0);
}

static void members(void **state)
{
  fixture *f = *state;
  char tool[128];
  char *tools_v[1] = {tool};
  hp_strv tools = {tools_v, 1, 0};
  char *env[] = {"HIP_VISIBLE_DEVICES=1",
                 "HOME=/home/x",
                 "PATH=/usr/bin",
                 "CUDA_CACHE=0",
                 "NOEQUALS",
                 "MY_HIP_X=no",
                 NULL};
  hp_run runs[2];
  hp_pass_result pr;
  hp_session s;
  const hp__jv *e;
  hp__jv *m;

  write_script(f->dir, "fakeprof", "#!/bin/sh\necho \"fakeprof 1.2.3 $1\"\nexit 3\n");
  snprintf(tool, sizeof(tool), "%s/fakeprof", f->dir);
  memset(runs, 0, sizeof(runs));
  runs[0].dir = "normal/warmup-1";
  runs[0].command = "./app --n 3";
  runs[1].dir = "normal/1";
  runs[1].command = "./app --n 3";
  memset(&pr, 0, sizeof(pr));
  pr.runs = runs;
  pr.nruns = 2;
  memset(&s, 0, sizeof(s));
  s.name = "mt";
  s.dir = f->dir;
  s.started = "2024-01-02T03:04:05Z";
  s.finished = "2024-01-02T03:04:09Z";
  s.passes = &pr;
  s.npasses = 1;

  assert_int_equal(hp__manifest_write(&f->loop, f->plan, &s, &tools, env, f->dirfd, &f->gpu), 0);
  m = read_json(f->dir, "manifest.json");
  assert_string_equal(jstr(m, "session"), "mt");
  assert_string_equal(jstr(m, "started"), "2024-01-02T03:04:05Z");
  assert_string_equal(jstr(m, "finished"), "2024-01-02T03:04:09Z");
  assert_true(hp__jv_num(hp__jv_get(m, "schema")) == 1);
  assert_non_null(hp__jv_str(hp__jv_get(m, "hprun_version")));

  assert_int_equal(hp__jv_len(hp__jv_get(m, "commands")), 2);
  assert_string_equal(jstr(m, "commands/0/dir"), "normal/warmup-1");
  assert_string_equal(jstr(m, "commands/1/dir"), "normal/1");
  assert_string_equal(jstr(m, "commands/1/command"), "./app --n 3");

  assert_int_equal(hp__jv_len(hp__jv_get(m, "tools")), 1);
  assert_string_equal(jstr(m, "tools/0/path"), tool);
  assert_string_equal(jstr(m, "tools/0/version_output"), "fakeprof 1.2.3 --version\n");
  assert_true(hp__jv_num(hp__jv_path(m, "tools/0/version_exit_status")) == 3);

  /* Only variables that change what a GPU program does, in the order of the environment. */
  e = hp__jv_get(m, "environment");
  assert_int_equal(hp__jv_len(e), 3);
  assert_string_equal(hp__jv_key_at(e, 0), "HIP_VISIBLE_DEVICES");
  assert_string_equal(hp__jv_str(hp__jv_at(e, 0)), "1");
  assert_string_equal(hp__jv_key_at(e, 1), "PATH");
  assert_string_equal(hp__jv_str(hp__jv_at(e, 1)), "/usr/bin");
  assert_string_equal(hp__jv_key_at(e, 2), "CUDA_CACHE");

  assert_true(hp__jv_num(hp__jv_path(m, "host/cpus_online")) >= 1);
  assert_int_equal(hp__jv_type_of(hp__jv_get(m, "gpu")), HP__JV_OBJ);
  assert_int_equal(hp__jv_len(hp__jv_get(m, "gpu")), 5);
  /* The plan's folder is a fresh temporary folder, in no git work tree. */
  assert_non_null(hp__jv_get(m, "app_git"));
  assert_int_equal(hp__jv_type_of(hp__jv_get(m, "app_git")), HP__JV_NULL);
  hp__jv_free(m);
}

/* What the lent H200's nvidia-smi answered to the manifest's probe, copied byte for byte from
 * tests/fixtures/real/h200-roofline/session/manifest.json (gpu/nvidia-smi/output). */
#define H200_SMI                                                                                   \
  "index, name, driver_version, memory.total [MiB], clocks.max.sm [MHz], clocks.current.sm "       \
  "[MHz]\n0, NVIDIA H200, 580.159.04, 143771 MiB, 1980 MHz, 1980 MHz\n"

/* The GPU name, read from the vendor tools' answers: nvidia-smi's name column (wherever the header
 * puts it), else rocm-smi's first Card series (the layout and both spellings of it as public
 * examples of rocm-smi --showproductname print them; we have no AMD capture of our own). */
static void gpu_name_from_answers(void **state)
{
  static const char rocm[] = "============ ROCm System Management Interface ============\n"
                             "GPU[0]\t\t: Card series: \t\tInstinct MI210\n"
                             "GPU[0]\t\t: Card model: \t\t0x0c34\n"
                             "GPU[1]\t\t: Card series: \t\tAMD Radeon Graphics\n";
  char *n;

  (void)state;
  assert_string_equal(n = hp__manifest_gpu_name(H200_SMI, rocm), "NVIDIA H200");
  free(n);
  assert_string_equal(n = hp__manifest_gpu_name("name, index\nTesla V100-SXM2-16GB , 0\n", NULL),
                      "Tesla V100-SXM2-16GB");
  free(n);
  assert_string_equal(n = hp__manifest_gpu_name(NULL, rocm), "Instinct MI210");
  free(n);
  assert_string_equal(n = hp__manifest_gpu_name("", "GPU[0] : Card Series:  AMD Instinct MI300X\n"),
                      "AMD Instinct MI300X");
  free(n);
  /* An error message, a header without rows, or nothing at all names no GPU. */
  assert_null(hp__manifest_gpu_name("NVIDIA-SMI has failed because it couldn't communicate\n",
                                    "GPU[0] : Card model: 0x0c34\n"));
  assert_null(hp__manifest_gpu_name("index, name\n", NULL));
  assert_null(hp__manifest_gpu_name(NULL, NULL));
}

/* The manifest records the name beside the raw answer, and hands the same name back. */
static void gpu_name_recorded(void **state)
{
  fixture *f = *state;
  char path[128];
  char *env[2] = {path, NULL};
  hp_session s;
  hp__jv *m;

  write_script(f->dir, "nvidia-smi", "#!/bin/sh\nprintf '" H200_SMI "'\n");
  snprintf(path, sizeof(path), "PATH=%s", f->dir);
  memset(&s, 0, sizeof(s));
  s.name = "mt";
  s.dir = f->dir;
  assert_int_equal(hp__manifest_write(&f->loop, f->plan, &s, NULL, env, f->dirfd, &f->gpu), 0);
  assert_string_equal(f->gpu, "NVIDIA H200");
  m = read_json(f->dir, "manifest.json");
  assert_string_equal(jstr(m, "gpu/name"), "NVIDIA H200");
  assert_string_equal(jstr(m, "gpu/nvidia-smi/output"), H200_SMI);
  hp__jv_free(m);
}

/* The redaction rule, name by name: in with any case and anywhere in the name, out otherwise. */
static void redaction_rule(void **state)
{
  static const char *const secret[] = {"NVIDIA_API_KEY",
                                       "HPRUN_TOKEN",
                                       "NCCL_IB_PASSWORD",
                                       "AWS_SECRET_ACCESS_KEY",
                                       "GITHUB_TOKEN",
                                       "my_password",
                                       "DB_PASSWD",
                                       "GOOGLE_APPLICATION_CREDENTIALS",
                                       "Api_Key",
                                       "KEY",
                                       "HF_TOKEN=hf_x",
                                       "CUDA_Credential_FILE",
                                       "secret",
                                       "KEYBOARD_LAYOUT",
                                       NULL};
  static const char *const plain[] = {"HIP_VISIBLE_DEVICES",
                                      "PATH",
                                      "LD_LIBRARY_PATH",
                                      "HOME",
                                      "HPRUN_PASS",
                                      "PASSW",
                                      "TOKE",
                                      "KE",
                                      "",
                                      "HIP_X=my_token_is_here",
                                      NULL};
  size_t i;

  (void)state;
  for (i = 0; secret[i]; i++)
    if (!hp__env_is_secret(secret[i]))
      fail_msg("'%s' should be a secret", secret[i]);
  for (i = 0; plain[i]; i++)
    if (hp__env_is_secret(plain[i]))
      fail_msg("'%s' should not be a secret", plain[i]);
  assert_string_equal(HP__REDACTED, "<redacted>");
  assert_string_equal(hp__env_shown("HPRUN_TOKEN", "xyz"), "<redacted>");
  assert_string_equal(hp__env_shown("HIP_VISIBLE_DEVICES", "1"), "1");
}

/* Secrets among the variables the manifest keeps are stored as "<redacted>"; their values appear
 * nowhere in the file. */
static void manifest_redacts_secrets(void **state)
{
  fixture *f = *state;
  char *env[] = {"NVIDIA_API_KEY=abc-value-1",
                 "HPRUN_TOKEN=xyz-value-2",
                 "NCCL_IB_PASSWORD=pw-value-3",
                 "HIP_VISIBLE_DEVICES=2",
                 "CUDA_SECRET_X=sv-value-4",
                 "OTHER_TOKEN=not-kept-5",
                 NULL};
  char path[256], *text = NULL;
  const hp__jv *e;
  hp_session s;
  hp__jv *m;

  memset(&s, 0, sizeof(s));
  s.name = "mt";
  s.dir = f->dir;
  assert_int_equal(hp__manifest_write(&f->loop, f->plan, &s, NULL, env, f->dirfd, &f->gpu), 0);
  m = read_json(f->dir, "manifest.json");
  e = hp__jv_get(m, "environment");
  assert_int_equal(hp__jv_len(e), 5); /* OTHER_TOKEN is no GPU variable: left out */
  assert_string_equal(jstr(m, "environment/NVIDIA_API_KEY"), "<redacted>");
  assert_string_equal(jstr(m, "environment/HPRUN_TOKEN"), "<redacted>");
  assert_string_equal(jstr(m, "environment/NCCL_IB_PASSWORD"), "<redacted>");
  assert_string_equal(jstr(m, "environment/HIP_VISIBLE_DEVICES"), "2");
  assert_string_equal(jstr(m, "environment/CUDA_SECRET_X"), "<redacted>");
  hp__jv_free(m);
  snprintf(path, sizeof(path), "%s/manifest.json", f->dir);
  assert_int_equal(hp__read_file(path, &text, NULL), 0);
  assert_null(strstr(text, "-value-"));
  assert_null(strstr(text, "not-kept"));
  free(text);
}

/* A link planted at manifest.json's temporary name is refused, not followed. */
static void manifest_refuses_planted_tmp(void **state)
{
  fixture *f = *state;
  char tmp[256], target[256], *text = NULL;
  hp_session s;
  int r;

  memset(&s, 0, sizeof(s));
  s.name = "mt";
  s.dir = f->dir;
  snprintf(target, sizeof(target), "%s/sentinel", f->dir);
  assert_int_equal(hp__write_file(target, "sentinel", 8, 1), 0);
  snprintf(tmp, sizeof(tmp), "%s/manifest.json.tmp.%ld", f->dir, (long)getpid());
  assert_int_equal(symlink(target, tmp), 0);
  r = hp__manifest_write(&f->loop, f->plan, &s, NULL, NULL, f->dirfd, &f->gpu);
  assert_int_equal(hp__fs_kind(r), HP_EEXIST);
  assert_int_equal(hp__fs_errno(r), EEXIST);
  assert_int_equal(hp__read_file(target, &text, NULL), 0);
  assert_string_equal(text, "sentinel");
  free(text);
  snprintf(target, sizeof(target), "%s/manifest.json", f->dir);
  assert_int_equal(access(target, F_OK), -1);
}

/* Redaction by value: each token shape is replaced whole, a URL keeps its user and host, and the
 * look-alikes that are no token (too short, no boundary, a URL without a password) stay. */
static void redaction_by_value(void **state)
{
  static const char *const cases[][2] = {
      {"--token=ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z x", "--token=<redacted> x"},
      {"github_pat_11ABCDEFG0123456789_abcdefghij", "<redacted>"},
      {"glpat-xY12abCD34efGH56ijKL", "<redacted>"},
      {"a xoxb-123456789012-abcdefghijkl b", "a <redacted> b"},
      {"xoxp-123456789012-mnopqrstuvwx", "<redacted>"},
      {"key=AKIAIOSFODNN7EXAMPLE;", "key=<redacted>;"},
      {"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n",
       "<redacted>"},
      {"postgres://u:pw@h/db", "postgres://u:<redacted>@h/db"},
      {"s3://AKID:se/cret@bucket", "s3://AKID:se/cret@bucket"}, /* '/' ends the authority */
      {"https://host:8443/path", "https://host:8443/path"},
      {"https://user@host/path", "https://user@host/path"},
      {"ghp_short", "ghp_short"},
      {"xghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z", "xghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3z"},
      {"AKIAIOSFODNN7EXAMPLEX", "AKIAIOSFODNN7EXAMPLEX"},
      {"eyJhbGciOiJIUzI1NiJ9", "eyJhbGciOiJIUzI1NiJ9"},
      {"", ""},
  };
  size_t i;
  char *r;

  (void)state;
  for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
    r = hp__redact(cases[i][0]);
    assert_non_null(r);
    assert_string_equal(r, cases[i][1]);
    free(r);
  }
  assert_null(hp__redact(NULL));
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(plan_copy_and_hash, setup, teardown),
      cmocka_unit_test_setup_teardown(plan_without_text, setup, teardown),
      cmocka_unit_test_setup_teardown(members, setup, teardown),
      cmocka_unit_test(gpu_name_from_answers),
      cmocka_unit_test_setup_teardown(gpu_name_recorded, setup, teardown),
      cmocka_unit_test(redaction_rule),
      cmocka_unit_test(redaction_by_value),
      cmocka_unit_test_setup_teardown(manifest_redacts_secrets, setup, teardown),
      cmocka_unit_test_setup_teardown(manifest_refuses_planted_tmp, setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
