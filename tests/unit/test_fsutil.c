/*
 * Tests for lib/util/sys/fsutil.c: whole-file writes and reads, mkdir -p, path joining and the PATH
 * lookup, and the folder-relative functions a session's files are made with: they must refuse
 * what exists, a link at the target, a link among the folders on the way, and never follow a link
 * planted at a temporary name. Everything happens in a fresh temporary folder that the group
 * teardown removes; "outside" there stands for anything outside a session folder, and its
 * sentinel file must never change.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "hprun.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"

/* Expects a failure of HP_E* kind `code` for the system's reason `err`, both in the code the call
 * returns (errno is not looked at: it is no result of these functions). */
#define assert_fails(call, code, err)                                                              \
  do {                                                                                             \
    int r_ = (call);                                                                               \
    assert_int_equal(hp__fs_kind(r_), (code));                                                     \
    assert_int_equal(hp__fs_errno(r_), (err));                                                     \
  } while (0)

static char tmpdir[256];

/* A path inside the temporary folder, in one of four static buffers used in turn (so that a call
 * such as symlink(at(a), at(b)) gets two paths). */
static const char *at(const char *name)
{
  static char paths[4][512];
  static int next;
  char *path = paths[next++ % 4];

  snprintf(path, sizeof(paths[0]), "%s/%s", tmpdir, name);
  return path;
}

static int make_tmpdir(void **state)
{
  const char *base = getenv("TMPDIR");

  (void)state;
  snprintf(tmpdir, sizeof(tmpdir), "%s/hprun-test-fsutil-XXXXXX", base && *base ? base : "/tmp");
  return mkdtemp(tmpdir) ? 0 : -1;
}

/* Removes the folder and what the tests left in it (files and folders, depth-first). */
static void remove_tree(const char *path)
{
  struct stat st;
  DIR *d;
  struct dirent *e;
  char sub[1024];

  if (lstat(path, &st) != 0)
    return;
  if (!S_ISDIR(st.st_mode)) {
    unlink(path);
    return;
  }
  d = opendir(path);
  while (d && (e = readdir(d)) != NULL) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
      continue;
    snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
    remove_tree(sub);
  }
  if (d)
    closedir(d);
  rmdir(path);
}

static int remove_tmpdir(void **state)
{
  (void)state;
  remove_tree(tmpdir);
  return 0;
}

/* How many entries (besides . and ..) the temporary folder holds. */
static int count_entries(void)
{
  DIR *d = opendir(tmpdir);
  struct dirent *e;
  int n = 0;

  assert_non_null(d);
  while ((e = readdir(d)) != NULL)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  return n;
}

static void test_write_then_read(void **state)
{
  static const char data[] = "line one\nline two\0after a NUL\n";
  char *got = NULL;
  size_t len = 99;

  (void)state;
  assert_int_equal(hp__write_file(at("w.txt"), data, sizeof(data) - 1, 1), 0);
  assert_int_equal(hp__read_file(at("w.txt"), &got, &len), 0);
  assert_int_equal(len, sizeof(data) - 1);
  assert_memory_equal(got, data, sizeof(data) - 1);
  assert_int_equal(got[len], '\0'); /* NUL-terminated for text callers */
  free(got);
  /* No temporary file is left next to it. */
  assert_int_equal(count_entries(), 1);
  /* len may be NULL. */
  assert_int_equal(hp__read_file(at("w.txt"), &got, NULL), 0);
  assert_string_equal(got, "line one\nline two");
  free(got);
  remove_tree(at("w.txt"));
}

static void test_exclusive_refuses_existing(void **state)
{
  char *got = NULL;

  (void)state;
  assert_int_equal(hp__write_file(at("x.txt"), "first", 5, 1), 0);
  assert_fails(hp__write_file(at("x.txt"), "second", 6, 1), HP_EEXIST, EEXIST);
  assert_int_equal(hp__read_file(at("x.txt"), &got, NULL), 0);
  assert_string_equal(got, "first"); /* untouched */
  free(got);
  assert_int_equal(count_entries(), 1);
  /* Without `exclusive` the file is replaced. */
  assert_int_equal(hp__write_file(at("x.txt"), "third", 5, 0), 0);
  assert_int_equal(hp__read_file(at("x.txt"), &got, NULL), 0);
  assert_string_equal(got, "third");
  free(got);
  assert_int_equal(count_entries(), 1);
  remove_tree(at("x.txt"));
}

static void test_empty_file(void **state)
{
  char *got = NULL;
  size_t len = 99;

  (void)state;
  assert_int_equal(hp__write_file(at("empty"), "", 0, 1), 0);
  assert_int_equal(hp__read_file(at("empty"), &got, &len), 0);
  assert_int_equal(len, 0);
  assert_non_null(got);
  assert_string_equal(got, "");
  free(got);
  remove_tree(at("empty"));
}

static void test_read_errors(void **state)
{
  char *got = (char *)1;
  size_t len = 99;

  (void)state;
  assert_int_equal(hp__read_file(at("missing"), &got, &len), HP_ENOENT);
  assert_null(got);
  assert_int_equal(len, 0);
  assert_int_equal(hp__read_file(at("missing/below"), &got, NULL), HP_ENOENT);
  /* A folder opens but cannot be read. */
  assert_int_equal(hp__read_file(tmpdir, &got, NULL), HP_EIO);
  assert_null(got);
  /* Writing into a folder that does not exist. */
  assert_fails(hp__write_file(at("nodir/f"), "x", 1, 0), HP_ENOENT, ENOENT);
  assert_int_equal(count_entries(), 0);
}

static void test_mkdirs(void **state)
{
  struct stat st;
  char *p;

  (void)state;
  assert_int_equal(hp__mkdirs(at("a/b/c/d"), 0755), 0);
  assert_int_equal(stat(at("a/b/c/d"), &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  /* Existing folders are fine, whole or in part, with or without a trailing slash. */
  assert_int_equal(hp__mkdirs(at("a/b/c/d"), 0755), 0);
  assert_int_equal(hp__mkdirs(at("a/b/e/"), 0755), 0);
  assert_int_equal(stat(at("a/b/e"), &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  /* A file in the way of a folder to create. */
  assert_int_equal(hp__write_file(at("a/file"), "x", 1, 1), 0);
  assert_fails(hp__mkdirs(at("a/file/sub"), 0755), HP_ENOENT, ENOTDIR);
  /* A relative path. */
  p = getcwd(NULL, 0);
  assert_non_null(p);
  assert_int_equal(chdir(tmpdir), 0);
  assert_int_equal(hp__mkdirs("rel/one", 0755), 0);
  assert_int_equal(chdir(p), 0);
  free(p);
  assert_int_equal(stat(at("rel/one"), &st), 0);
  assert_true(S_ISDIR(st.st_mode));
  remove_tree(at("a"));
  remove_tree(at("rel"));
}

static void check_join(const char *a, const char *b, const char *want)
{
  char *s = hp__path_join(a, b);

  assert_non_null(s);
  assert_string_equal(s, want);
  free(s);
}

static void test_path_join(void **state)
{
  (void)state;
  check_join("out", "summary.json", "out/summary.json");
  check_join("out/", "summary.json", "out/summary.json");
  check_join("/abs/dir", "f", "/abs/dir/f");
  check_join("/", "f", "/f");
  check_join("out", "/etc/f", "/etc/f"); /* an absolute second part wins */
  check_join("", "f", "f");
  check_join("a/b", "c/d", "a/b/c/d");
}

static void test_which(void **state)
{
  char *path = NULL, *old, *dirs;

  (void)state;
  assert_int_equal(hp__which("sh", &path), 0);
  assert_non_null(path);
  assert_int_equal(path[0], '/');
  assert_string_equal(path + strlen(path) - 3, "/sh");
  assert_int_equal(access(path, X_OK), 0);
  free(path);
  path = (char *)1;
  assert_int_equal(hp__which("hprun-no-such-program-7f3a", &path), HP_ENOENT);
  assert_null(path);
  /* A name with a slash is taken as a path, not looked up. */
  assert_int_equal(hp__which("/bin/sh", &path), 0);
  assert_string_equal(path, "/bin/sh");
  free(path);
  assert_int_equal(hp__which(at("nothing-here"), &path), HP_ENOENT);

  /* Only executable regular files count, in PATH order. */
  old = hp__strdup(getenv("PATH"));
  assert_int_equal(hp__mkdirs(at("bin1/tool"), 0755), 0); /* a folder named like the program */
  assert_int_equal(hp__mkdirs(at("bin2"), 0755), 0);
  assert_int_equal(hp__write_file(at("bin2/tool"), "#!/bin/sh\n", 10, 1), 0); /* not executable */
  assert_int_equal(hp__mkdirs(at("bin3"), 0755), 0);
  assert_int_equal(hp__write_file(at("bin3/tool"), "#!/bin/sh\n", 10, 1), 0);
  assert_int_equal(chmod(at("bin3/tool"), 0755), 0);
  dirs = hp__asprintf("%s/bin1:%s/bin2:%s/bin3", tmpdir, tmpdir, tmpdir);
  assert_non_null(dirs);
  assert_int_equal(setenv("PATH", dirs, 1), 0);
  free(dirs);
  assert_int_equal(hp__which("tool", &path), 0);
  assert_string_equal(path, at("bin3/tool"));
  free(path);
  assert_int_equal(hp__which("sh", &path), HP_ENOENT);
  if (old)
    setenv("PATH", old, 1);
  else
    unsetenv("PATH");
  free(old);
  remove_tree(at("bin1"));
  remove_tree(at("bin2"));
  remove_tree(at("bin3"));
}

/* ---- the folder-relative functions ---------------------------------------------------------- */

/* A session-like folder "s" with a descriptor, and "outside" holding a sentinel file whose
 * content and mtime are fixed, so any write through a link would show. */
typedef struct fsat {
  int fd; /* <tmpdir>/s */
  char sentinel[512];
  struct stat before;
} fsat;

static void fsat_open(fsat *f)
{
  struct timeval tv[2] = {{1000000000, 0}, {1000000000, 0}};

  /* What a failed test before this one left behind must not fail this one too. */
  remove_tree(at("s"));
  remove_tree(at("outside"));
  assert_int_equal(mkdir(at("s"), 0755), 0);
  assert_int_equal(mkdir(at("outside"), 0755), 0);
  snprintf(f->sentinel, sizeof(f->sentinel), "%s", at("outside/sentinel"));
  assert_int_equal(hp__write_file(f->sentinel, "sentinel", 8, 1), 0);
  assert_int_equal(utimes(f->sentinel, tv), 0);
  assert_int_equal(stat(f->sentinel, &f->before), 0);
  assert_int_equal(hp__dir_open(at("s"), &f->fd), 0);
  assert_true(fcntl(f->fd, F_GETFD) & FD_CLOEXEC);
}

/* The sentinel is as it was, and nothing else appeared outside. */
static void assert_outside_untouched(const fsat *f)
{
  struct stat st;
  char *text = NULL;
  DIR *d;
  struct dirent *e;
  int n = 0;

  assert_int_equal(lstat(f->sentinel, &st), 0);
  assert_true(S_ISREG(st.st_mode));
  assert_int_equal(st.st_ino, f->before.st_ino);
  assert_int_equal(st.st_size, 8);
  assert_int_equal(st.st_mtime, f->before.st_mtime);
  assert_int_equal(hp__read_file(f->sentinel, &text, NULL), 0);
  assert_string_equal(text, "sentinel");
  free(text);
  d = opendir(at("outside"));
  assert_non_null(d);
  while ((e = readdir(d)) != NULL)
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  closedir(d);
  assert_int_equal(n, 1);
}

static void fsat_close(fsat *f)
{
  close(f->fd);
  remove_tree(at("s"));
  remove_tree(at("outside"));
}

static int is_kind(const char *path, mode_t kind)
{
  struct stat st;

  return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == kind;
}

static void test_mkdir_at(void **state)
{
  fsat f;
  int fd = -1;

  (void)state;
  fsat_open(&f);
  assert_int_equal(hp__mkdir_at(f.fd, "pass", 0755, &fd), 0);
  assert_true(fd >= 0 && (fcntl(fd, F_GETFD) & FD_CLOEXEC));
  close(fd);
  assert_true(is_kind(at("s/pass"), S_IFDIR));
  assert_int_equal(hp__mkdir_at(f.fd, "pass/1", 0755, NULL), 0);
  assert_true(is_kind(at("s/pass/1"), S_IFDIR));

  /* What exists is never reused: a folder, a file, a link to a folder, a dangling link. */
  assert_fails(hp__mkdir_at(f.fd, "pass", 0755, &fd), HP_EEXIST, EEXIST);
  assert_int_equal(fd, -1);
  assert_fails(hp__mkdir_at(f.fd, "pass/1", 0755, NULL), HP_EEXIST, EEXIST);
  assert_int_equal(hp__write_file(at("s/file"), "x", 1, 1), 0);
  assert_fails(hp__mkdir_at(f.fd, "file", 0755, NULL), HP_EEXIST, EEXIST);
  assert_int_equal(symlink(at("outside"), at("s/link")), 0);
  assert_fails(hp__mkdir_at(f.fd, "link", 0755, NULL), HP_EEXIST, EEXIST);
  assert_int_equal(symlink(at("outside/new"), at("s/dangling")), 0);
  assert_fails(hp__mkdir_at(f.fd, "dangling", 0755, NULL), HP_EEXIST, EEXIST);

  /* A link among the folders on the way is refused, not followed. */
  assert_fails(hp__mkdir_at(f.fd, "link/2", 0755, NULL), HP_EEXIST, ELOOP);
  assert_int_equal(symlink(at("s/pass"), at("s/pass/inner")), 0);
  assert_fails(hp__mkdir_at(f.fd, "pass/inner/x", 0755, NULL), HP_EEXIST, ELOOP);
  /* A file on the way is no folder; a missing folder is not made. */
  assert_fails(hp__mkdir_at(f.fd, "file/2", 0755, NULL), HP_ENOENT, ENOTDIR);
  assert_fails(hp__mkdir_at(f.fd, "nothing/2", 0755, NULL), HP_ENOENT, ENOENT);
  /* Names that could leave the folder are no names. */
  assert_fails(hp__mkdir_at(f.fd, "../escaped", 0755, NULL), HP_EINVAL, EINVAL);
  assert_fails(hp__mkdir_at(f.fd, "pass/../../escaped", 0755, NULL), HP_EINVAL, EINVAL);
  assert_fails(hp__mkdir_at(f.fd, at("escaped"), 0755, NULL), HP_EINVAL, EINVAL);
  assert_fails(hp__mkdir_at(f.fd, "pass//2", 0755, NULL), HP_EINVAL, EINVAL);
  assert_fails(hp__mkdir_at(f.fd, "./2", 0755, NULL), HP_EINVAL, EINVAL);
  assert_fails(hp__mkdir_at(f.fd, "", 0755, NULL), HP_EINVAL, EINVAL);
  assert_false(is_kind(at("escaped"), S_IFDIR));
  assert_outside_untouched(&f);
  fsat_close(&f);
}

static void test_dir_open_at(void **state)
{
  fsat f;
  int fd = -1;

  (void)state;
  fsat_open(&f);
  assert_int_equal(hp__mkdir_at(f.fd, "pass", 0755, NULL), 0);
  assert_int_equal(hp__dir_open_at(f.fd, "pass", &fd), 0);
  assert_int_equal(hp__mkdir_at(fd, "1", 0755, NULL), 0); /* the descriptor is that folder */
  close(fd);
  assert_true(is_kind(at("s/pass/1"), S_IFDIR));
  assert_int_equal(symlink(at("outside"), at("s/link")), 0);
  assert_fails(hp__dir_open_at(f.fd, "link", &fd), HP_EEXIST, ELOOP);
  assert_int_equal(fd, -1);
  assert_fails(hp__dir_open_at(f.fd, "link/sub", &fd), HP_EEXIST, ELOOP);
  assert_fails(hp__dir_open_at(f.fd, "missing", &fd), HP_ENOENT, ENOENT);
  fsat_close(&f);
}

/* The temporary name is the documented one: "<name>.tmp.<pid>", computed here on its own. */
static void test_tmp_name(void **state)
{
  char want[64], *got;

  (void)state;
  snprintf(want, sizeof(want), "summary.json.tmp.%ld", (long)getpid());
  got = hp__tmp_name("summary.json");
  assert_non_null(got);
  assert_string_equal(got, want);
  free(got);
}

static void test_write_file_at(void **state)
{
  fsat f;
  char *got = NULL;

  (void)state;
  fsat_open(&f);
  assert_int_equal(hp__write_file_at(f.fd, "summary.json", "one", 3, 0), 0);
  assert_int_equal(hp__write_file_at(f.fd, "summary.json", "two!", 4, 0), 0); /* replaced */
  assert_int_equal(hp__read_file(at("s/summary.json"), &got, NULL), 0);
  assert_string_equal(got, "two!");
  free(got);
  assert_fails(hp__write_file_at(f.fd, "summary.json", "x", 1, 1), HP_EEXIST, EEXIST);
  assert_int_equal(hp__write_file_at(f.fd, "plan.yaml", "plan", 4, 1), 0);
  assert_fails(hp__write_file_at(f.fd, "plan.yaml", "other", 5, 1), HP_EEXIST, EEXIST);
  assert_int_equal(hp__read_file(at("s/plan.yaml"), &got, NULL), 0);
  assert_string_equal(got, "plan");
  free(got);

  /* A link planted at the target: a replacing write replaces the link itself, an exclusive
   * write refuses it; neither follows it. */
  assert_int_equal(symlink(f.sentinel, at("s/report.md")), 0);
  assert_int_equal(hp__write_file_at(f.fd, "report.md", "report", 6, 0), 0);
  assert_true(is_kind(at("s/report.md"), S_IFREG));
  assert_int_equal(symlink(f.sentinel, at("s/manifest.json")), 0);
  assert_fails(hp__write_file_at(f.fd, "manifest.json", "m", 1, 1), HP_EEXIST, EEXIST);
  assert_true(is_kind(at("s/manifest.json"), S_IFLNK));
  /* A folder at the target is not replaced. */
  assert_int_equal(mkdir(at("s/folder.json"), 0755), 0);
  assert_fails(hp__write_file_at(f.fd, "folder.json", "x", 1, 0), HP_EIO, EISDIR);
  /* A link among the folders on the way. */
  assert_int_equal(symlink(at("outside"), at("s/link")), 0);
  assert_fails(hp__write_file_at(f.fd, "link/summary.json", "x", 1, 0), HP_EEXIST, ELOOP);
  assert_outside_untouched(&f);
  fsat_close(&f);
}

/* Whatever is planted at the temporary name (a link to a file outside, a dangling link, a file,
 * a folder) is refused and left as it was; the target is not written, and nothing else stays. */
static void test_write_file_at_planted_tmp(void **state)
{
  static const char *const targets[] = {"summary.json", "report.md", "manifest.json", "plan.yaml"};
  fsat f;
  char tmp[128], rel[160], link[600];
  size_t i;
  int kind, exclusive;
  ssize_t n;

  (void)state;
  fsat_open(&f);
  for (i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
    for (kind = 0; kind < 4; kind++)
      for (exclusive = 0; exclusive < 2; exclusive++) {
        snprintf(tmp, sizeof(tmp), "%s.tmp.%ld", targets[i], (long)getpid());
        snprintf(rel, sizeof(rel), "s/%s", tmp);
        if (kind == 0)
          assert_int_equal(symlink(f.sentinel, at(rel)), 0);
        else if (kind == 1)
          assert_int_equal(symlink(at("outside/created"), at(rel)), 0);
        else if (kind == 2)
          assert_int_equal(hp__write_file(at(rel), "planted", 7, 1), 0);
        else
          assert_int_equal(mkdir(at(rel), 0755), 0);
        assert_fails(hp__write_file_at(f.fd, targets[i], "data", 4, exclusive), HP_EEXIST, EEXIST);
        snprintf(rel, sizeof(rel), "s/%s", targets[i]);
        assert_false(is_kind(at(rel), S_IFREG));
        snprintf(rel, sizeof(rel), "s/%s", tmp);
        if (kind == 0) {
          n = readlink(at(rel), link, sizeof(link) - 1);
          assert_true(n > 0);
          link[n] = '\0';
          assert_string_equal(link, f.sentinel);
        }
        assert_true(is_kind(at(rel), kind < 2 ? S_IFLNK : kind == 2 ? S_IFREG : S_IFDIR));
        remove_tree(at(rel));
        assert_outside_untouched(&f);
      }
  /* With the name free again, the write succeeds and leaves no temporary file behind. */
  assert_int_equal(hp__write_file_at(f.fd, "summary.json", "data", 4, 0), 0);
  assert_int_equal(hp__write_file_at(f.fd, "plan.yaml", "data", 4, 1), 0);
  snprintf(rel, sizeof(rel), "s/summary.json.tmp.%ld", (long)getpid());
  assert_false(is_kind(at(rel), S_IFREG));
  snprintf(rel, sizeof(rel), "s/plan.yaml.tmp.%ld", (long)getpid());
  assert_false(is_kind(at(rel), S_IFREG));
  fsat_close(&f);
}

/* The path-based write goes the same way: a planted temporary name is refused. */
static void test_write_file_planted_tmp(void **state)
{
  fsat f;
  char rel[160];

  (void)state;
  fsat_open(&f);
  snprintf(rel, sizeof(rel), "s/out.md.tmp.%ld", (long)getpid());
  assert_int_equal(symlink(f.sentinel, at(rel)), 0);
  assert_fails(hp__write_file(at("s/out.md"), "data", 4, 0), HP_EEXIST, EEXIST);
  assert_false(is_kind(at("s/out.md"), S_IFREG));
  assert_outside_untouched(&f);
  fsat_close(&f);
}

static void check_error(const char *verb, const char *dir, const char *rel, int e, const char *want)
{
  char *msg = hp__fs_error(verb, dir, rel, e);

  assert_non_null(msg);
  assert_string_equal(msg, want);
  free(msg);
}

/* A code holds its kind and its reason, and gives both back; ENOMEM and a code without a reason
 * stay plain HP_E* codes, and a plain code gives the nearest reason. */
static void test_fs_code(void **state)
{
  int r = hp__fs_code(HP_EEXIST, ELOOP);

  (void)state;
  assert_true(r < 0);
  assert_int_not_equal(r, HP_EEXIST);
  assert_int_equal(hp__fs_kind(r), HP_EEXIST);
  assert_int_equal(hp__fs_errno(r), ELOOP);
  r = hp__fs_code(HP_EIO, EISDIR);
  assert_int_equal(hp__fs_kind(r), HP_EIO);
  assert_int_equal(hp__fs_errno(r), EISDIR);
  assert_int_equal(hp__fs_code(HP_ENOMEM, ENOMEM), HP_ENOMEM);
  assert_int_equal(hp__fs_code(HP_EIO, 0), HP_EIO);
  assert_int_equal(hp__fs_kind(HP_EIO), HP_EIO);
  assert_int_equal(hp__fs_kind(0), 0);
  assert_int_equal(hp__fs_errno(0), 0);
  assert_int_equal(hp__fs_errno(HP_ENOMEM), ENOMEM);
  assert_int_equal(hp__fs_errno(HP_ENOENT), ENOENT);
  assert_int_equal(hp__fs_errno(HP_EEXIST), EEXIST);
  assert_int_equal(hp__fs_errno(HP_EIO), EIO);
}

static void test_fs_error(void **state)
{
  char want[256];

  (void)state;
  check_error("write", "/s", "summary.json", ENOSPC,
              "cannot write /s/summary.json: No space left on device");
  check_error("create", NULL, "/ro/x", EROFS, "cannot create /ro/x: Read-only file system");
  check_error("write", "/s", "a/b.txt", EACCES, "cannot write /s/a/b.txt: Permission denied");
  check_error("create", "/s", "pass", EEXIST,
              "cannot create /s/pass: it exists already (hprun never reuses or replaces what it "
              "did not create)");
  check_error("create", "/s", "pass/2", ELOOP,
              "cannot create /s/pass/2: a symbolic link is in the way (hprun never follows one "
              "there)");
  snprintf(want, sizeof(want),
           "cannot write /s/summary.json: its temporary name /s/summary.json.tmp.%ld exists "
           "already (hprun never reuses or follows what it did not create)",
           (long)getpid());
  check_error("write", "/s", "summary.json", EEXIST, want);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_write_then_read),
      cmocka_unit_test(test_exclusive_refuses_existing),
      cmocka_unit_test(test_empty_file),
      cmocka_unit_test(test_read_errors),
      cmocka_unit_test(test_mkdirs),
      cmocka_unit_test(test_path_join),
      cmocka_unit_test(test_which),
      cmocka_unit_test(test_mkdir_at),
      cmocka_unit_test(test_dir_open_at),
      cmocka_unit_test(test_tmp_name),
      cmocka_unit_test(test_write_file_at),
      cmocka_unit_test(test_write_file_at_planted_tmp),
      cmocka_unit_test(test_write_file_planted_tmp),
      cmocka_unit_test(test_fs_code),
      cmocka_unit_test(test_fs_error),
  };
  return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
