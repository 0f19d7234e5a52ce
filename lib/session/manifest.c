/*
 * manifest.json: what a reader needs to reproduce or doubt a session. The hprun version, the plan
 * (copied beside it, with its SHA-256), every command line, each profiler's own version output,
 * the environment variables that change GPU behaviour, the host, the GPU as the vendor's tools
 * describe it (and its name, read from their answers), and the git commit of the app's folder. Every probe is optional: a tool that is
 * missing is recorded as missing, never an error.
 */
#include "session/manifest.h"
#include "exec/runner.h"
#include "session/session.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/json/json.h"
#include "util/base/secret.h"
#include "util/base/sha256.h"
#include "util/base/strv.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/utsname.h>
#include <unistd.h>

extern char **environ;

/* Runs a probe command for at most 10 s and returns its output (stdout, then stderr), cut to
 * `max` bytes; NULL when it could not start. */
static char *probe(uv_loop_t *loop, const char *const *argv, char **env, size_t max,
                   long long *status)
{
  hp__buf out = HP__BUF_INIT;
  hp_strv v = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  size_t i;
  int r;

  for (i = 0; argv[i]; i++)
    hp__strv_push(&v, argv[i]);
  if (hp__strv_error(&v)) {
    hp_strv_free(&v);
    return NULL;
  }
  spec = (hp__child_spec){.argv = &v, .env = env, .capture = &out, .timeout_s = 10, .grace_s = 1};
  r = hp__child_run(loop, &spec, &res);
  hp_strv_free(&v);
  if (r) {
    hp__buf_free(&out);
    return NULL;
  }
  if (status)
    *status = res.term_signal ? 128 + res.term_signal : res.exit_status;
  if (out.len > max) {
    out.len = max;
    out.data[max] = '\0';
  }
  return hp__buf_steal(&out);
}

/* Variables that change what a GPU program or profiler does, or where its libraries come from. */
static int interesting(const char *kv)
{
  static const char *const prefixes[] = {"HIP_",
                                         "ROCM",
                                         "ROCR_",
                                         "HSA_",
                                         "HCC_",
                                         "DTK",
                                         "CUDA_",
                                         "NVIDIA_",
                                         "GPU_",
                                         "AMD_",
                                         "OMP_",
                                         "MIOPEN_",
                                         "NCCL_",
                                         "RCCL_",
                                         "PYTORCH_",
                                         "TORCH_",
                                         "LD_LIBRARY_PATH=",
                                         "LD_PRELOAD=",
                                         "PATH=",
                                         "ROCPROF",
                                         "HPRUN_",
                                         NULL};
  size_t i;

  for (i = 0; prefixes[i]; i++)
    if (strncmp(kv, prefixes[i], strlen(prefixes[i])) == 0)
      return 1;
  return 0;
}

/* Writes the probe's record under `key` and returns its output (malloc'd; NULL when the tool is
 * missing or gave none). */
static char *probe_member(hp__json *j, uv_loop_t *loop, const char *key, const char *const *argv,
                          char **env, size_t max)
{
  char *found = NULL, *out;
  long long st = -1;

  hp__json_key(j, key);
  if (hp__which_env(argv[0], env, &found) != 0) {
    hp__json_null(j);
    return NULL;
  }
  free(found);
  out = probe(loop, argv, env, max, &st);
  hp__json_obj_begin(j);
  hp__json_key(j, "command");
  hp__json_arr_begin(j);
  for (size_t i = 0; argv[i]; i++)
    hp__json_str(j, argv[i]);
  hp__json_arr_end(j);
  hp__json_kint(j, "exit_status", st);
  hp__json_kstr(j, "output", out);
  hp__json_obj_end(j);
  return out;
}

/* The plan file and the SHA-256 of its text, as copied into the session folder. */
static void plan_member(hp__json *j, const hp_plan *plan)
{
  char hash[65];

  hp__sha256_hex(plan->text ? plan->text : "", plan->text ? plan->text_len : 0, hash);
  hp__json_key(j, "plan");
  hp__json_obj_begin(j);
  hp__json_kstr(j, "file", plan->file);
  hp__json_kstr(j, "sha256", hash);
  hp__json_kstr(j, "copy", "plan.yaml");
  hp__json_obj_end(j);
}

/* The env_script the runs' environment came from, and the SHA-256 of its text as it was read at
 * the end of the session (null without one; a sha256 of null when it can no longer be read). */
static void env_script_member(hp__json *j, const hp_plan *plan)
{
  char hash[65], *path, *text = NULL;
  size_t len = 0;

  hp__json_key(j, "env_script");
  if (plan->profiler.env_script == NULL) {
    hp__json_null(j);
    return;
  }
  path = hp__session_abspath(plan->dir, plan->profiler.env_script);
  hp__json_obj_begin(j);
  hp__json_kstr(j, "file", path);
  if (path && hp__read_file(path, &text, &len) == 0) {
    hp__sha256_hex(text, len, hash);
    hp__json_kstr(j, "sha256", hash);
  } else {
    hp__json_kstr(j, "sha256", NULL);
  }
  hp__json_obj_end(j);
  free(text);
  free(path);
}

/* Every run's folder and command line, in the order they ran. */
static void commands_member(hp__json *j, const hp_session *s)
{
  size_t i, k;

  hp__json_key(j, "commands");
  hp__json_arr_begin(j);
  for (i = 0; i < s->npasses; i++)
    for (k = 0; k < s->passes[i].nruns; k++) {
      hp__json_obj_begin(j);
      hp__json_kstr(j, "dir", s->passes[i].runs[k].dir);
      hp__json_kstr(j, "command", s->passes[i].runs[k].command);
      hp__json_obj_end(j);
    }
  hp__json_arr_end(j);
}

/* Each profiler's own answer to --version. */
static void tools_member(hp__json *j, uv_loop_t *loop, const hp_strv *tools, char **env)
{
  size_t i;

  hp__json_key(j, "tools");
  hp__json_arr_begin(j);
  for (i = 0; tools && i < tools->n; i++) {
    const char *argv[] = {tools->v[i], "--version", NULL};
    long long st = -1;
    char *out = probe(loop, argv, env, 4096, &st);
    hp__json_obj_begin(j);
    hp__json_kstr(j, "path", tools->v[i]);
    hp__json_kstr(j, "version_output", out);
    hp__json_kint(j, "version_exit_status", st);
    hp__json_obj_end(j);
    free(out);
  }
  hp__json_arr_end(j);
}

/* The variables of the runs' base environment (env_script's, else hprun's) that matter, secrets
 * among them redacted by name, and by value where a value holds a token or a URL's password
 * (util/base/secret.h). */
static void environment_member(hp__json *j, char **env)
{
  size_t i;

  hp__json_key(j, "environment");
  hp__json_obj_begin(j);
  for (i = 0; (env ? env : environ)[i]; i++) {
    const char *kv = (env ? env : environ)[i], *eq = strchr(kv, '=');
    char *key, *val;
    if (!eq || !interesting(kv))
      continue;
    key = hp__strndup(kv, (size_t)(eq - kv));
    val = key && !hp__env_is_secret(key) ? hp__redact(eq + 1) : NULL;
    if (key)
      hp__json_kstr(j, key, val ? val : HP__REDACTED);
    free(key);
    free(val);
  }
  hp__json_obj_end(j);
}

static void host_member(hp__json *j)
{
  char host[256];
  struct utsname un;

  hp__json_key(j, "host");
  hp__json_obj_begin(j);
  if (gethostname(host, sizeof(host)) == 0) {
    host[sizeof(host) - 1] = '\0';
    hp__json_kstr(j, "hostname", host);
  }
  if (uname(&un) == 0) {
    hp__json_kstr(j, "system", un.sysname);
    hp__json_kstr(j, "release", un.release);
    hp__json_kstr(j, "machine", un.machine);
  }
  hp__json_kint(j, "cpus_online", sysconf(_SC_NPROCESSORS_ONLN));
  hp__json_kint(j, "memory_mib", (long long)sysconf(_SC_PHYS_PAGES) * sysconf(_SC_PAGESIZE) >> 20);
  hp__json_obj_end(j);
}

/* The n bytes at f without the blanks around them: malloc'd, NULL when nothing is left. */
static char *trimmed(const char *f, size_t n)
{
  while (n && isspace((unsigned char)*f))
    f++, n--;
  while (n && isspace((unsigned char)f[n - 1]))
    n--;
  return n ? hp__strndup(f, n) : NULL;
}

/* The `name` column of the first row under nvidia-smi's CSV header, which names the columns. */
static char *nvidia_name(const char *out)
{
  const char *f = out, *row = strchr(out, '\n');
  size_t col, k, n;
  char *h;

  for (col = 0;; col++, f += n + 1) {
    n = strcspn(f, ",\n");
    h = trimmed(f, n);
    k = h && strcmp(h, "name") == 0;
    free(h);
    if (k)
      break;
    if (f[n] != ',')
      return NULL;
  }
  for (f = row ? row + 1 : "", k = 0; k < col; k++, f++)
    if (*(f += strcspn(f, ",\n")) != ',')
      return NULL;
  return trimmed(f, strcspn(f, ",\n"));
}

/* The first `GPU[i] : Card series: NAME` line's NAME (rocm-smi spells it Series in some
 * versions). */
static char *rocm_name(const char *out)
{
  static const char key[] = "card series:";
  const char *l, *at;
  size_t n;

  for (l = out; *l; l += n + (l[n] == '\n')) {
    n = strcspn(l, "\n");
    for (at = l; at + sizeof(key) - 1 <= l + n; at++)
      if (strncasecmp(at, key, sizeof(key) - 1) == 0)
        return trimmed(at + sizeof(key) - 1, (size_t)(l + n - at) - (sizeof(key) - 1));
  }
  return NULL;
}

char *hp__manifest_gpu_name(const char *nvidia_smi, const char *rocm_smi)
{
  char *name = nvidia_smi ? nvidia_name(nvidia_smi) : NULL;

  return name ? name : rocm_smi ? rocm_name(rocm_smi) : NULL;
}

/* The GPU as each vendor's tool that is present describes it, and its name, read once here, which
 * is what a `reference:` entry's `gpu` pattern is matched against (*name: malloc'd or NULL). */
static void gpu_member(hp__json *j, uv_loop_t *loop, char **env, char **name)
{
  static const char *const nvsmi[] = {"nvidia-smi",
                                      "--query-gpu=index,name,driver_version,"
                                      "memory.total,clocks.max.sm,clocks.sm",
                                      "--format=csv", NULL};
  static const char *const rocmsmi[] = {"rocm-smi", "--showproductname", NULL};
  static const char *const hysmi[] = {"hy-smi", NULL};
  static const char *const rocminfo[] = {"rocminfo", NULL};
  char *nv, *rocm;

  hp__json_key(j, "gpu");
  hp__json_obj_begin(j);
  nv = probe_member(j, loop, "nvidia-smi", nvsmi, env, 4096);
  rocm = probe_member(j, loop, "rocm-smi", rocmsmi, env, 4096);
  free(probe_member(j, loop, "hy-smi", hysmi, env, 4096));
  free(probe_member(j, loop, "rocminfo", rocminfo, env, 16384));
  *name = hp__manifest_gpu_name(nv, rocm);
  hp__json_kstr(j, "name", *name);
  hp__json_obj_end(j);
  free(nv);
  free(rocm);
}

/* The app's source version, when its folder is in a git work tree; null otherwise. */
static void app_git_member(hp__json *j, uv_loop_t *loop, const char *cwd)
{
  const char *head[] = {"git", "-C", cwd, "rev-parse", "HEAD", NULL};
  const char *dirty[] = {"git", "-C", cwd, "status", "--porcelain", "--untracked-files=no", NULL};
  char *found = NULL, *h = NULL, *d = NULL;
  long long st = -1, st2 = -1;

  hp__json_key(j, "app_git");
  if (cwd == NULL) {
    hp__json_null(j);
    return;
  }
  if (hp__which("git", &found) == 0) {
    h = probe(loop, head, NULL, 256, &st);
    d = probe(loop, dirty, NULL, 65536, &st2);
  }
  free(found);
  if (h && st == 0) {
    h[strcspn(h, "\n")] = '\0';
    hp__json_obj_begin(j);
    hp__json_kstr(j, "dir", cwd);
    hp__json_kstr(j, "commit", h);
    hp__json_kbool(j, "dirty", d && st2 == 0 && d[0] != '\0');
    hp__json_obj_end(j);
  } else {
    hp__json_null(j);
  }
  free(h);
  free(d);
}

int hp__manifest_write(uv_loop_t *loop, const hp_plan *plan, const hp_session *s,
                       const hp_strv *tools, char **env, int dirfd, char **gpu_name)
{
  char *cwd = NULL, *text = NULL;
  hp__json j;
  int r;

  hp__json_init(&j, 1);
  hp__json_obj_begin(&j);
  hp__json_kstr(&j, "hprun_version", HPRUN_VERSION);
  hp__json_kint(&j, "schema", HPRUN_SUMMARY_SCHEMA);
  hp__json_kstr(&j, "session", s->name);
  hp__json_kstr(&j, "started", s->started);
  hp__json_kstr(&j, "finished", s->finished);
  plan_member(&j, plan);
  env_script_member(&j, plan);
  commands_member(&j, s);
  tools_member(&j, loop, tools, env);
  environment_member(&j, env);
  host_member(&j);
  gpu_member(&j, loop, env, gpu_name);
  cwd = hp__path_join(plan->dir, plan->app.cwd ? plan->app.cwd : ".");
  app_git_member(&j, loop, cwd);
  hp__json_obj_end(&j);

  r = hp__json_end(&j);
  if (r == 0 && (text = hp__buf_steal(&j.out)) == NULL)
    r = HP_ENOMEM;
  if (r == 0)
    r = hp__write_file_at(dirfd, "manifest.json", text, strlen(text), 0);
  free(text);
  free(cwd);
  hp__json_free(&j);
  return r;
}
