/*
 * The device-memory sampler (lib/exec/sampler.c): how one line becomes a reading, and a sampler
 * beside a real child through hp__child_run: readings counted, averaged, scaled, saved raw, and
 * ignored once the child has ended.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "exec/runner.h"
#include "exec/sampler.h"
#include "util/base/buf.h"
#include "util/sys/fsutil.h"
#include "util/base/strv.h"

static char tmpdir[64];

static int setup(void **state)
{
  (void)state;
  snprintf(tmpdir, sizeof(tmpdir), "/tmp/hprun-sampler-XXXXXX");
  return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
  char path[128];

  (void)state;
  snprintf(path, sizeof(path), "%s/mem.txt", tmpdir);
  unlink(path);
  return rmdir(tmpdir);
}

static double reading(const char *line, double scale)
{
  double v = -1;

  assert_int_equal(hp__sampler_reading(line, strlen(line), scale, &v), 0);
  return v;
}

static void test_reading_is_last_number(void **state)
{
  double v = 123;

  (void)state;
  assert_true(reading("2048", 1) == 2048.0);
  /* rocm-smi --csv: card, total, used: the used column is last. */
  assert_true(reading("card0,17163091968,1048576", 1) == 1048576.0);
  assert_true(reading("GPU 0: 300 MiB", 1) == 300.0);
  assert_true(reading("used=12.5", 1) == 12.5);
  assert_true(reading("  7  \r", 1) == 7.0);
  /* Only the length given counts: the "99" after it is not part of the line. */
  assert_int_equal(hp__sampler_reading("15 99", 2, 1, &v), 0);
  assert_true(v == 15.0);
  /* Headers and blank lines hold no reading and leave *mib alone. */
  v = 123;
  assert_int_equal(hp__sampler_reading("memory.used [MiB]", 17, 1, &v), HP_EPARSE);
  assert_int_equal(hp__sampler_reading("", 0, 1, &v), HP_EPARSE);
  assert_true(v == 123);
}

static void test_reading_scale(void **state)
{
  (void)state;
  /* rocm-smi reports bytes: 1/2^20 gives MiB. */
  assert_true(reading("card0,1,3145728", 1.0 / 1048576.0) == 3.0);
  assert_true(reading("512", 0.5) == 256.0);
  /* No scale (0) and a nonsense one (negative) both mean 1. */
  assert_true(reading("512", 0) == 512.0);
  assert_true(reading("512", -4) == 512.0);
}

/* amdgpu's mem_info_vram_used holds one number of bytes and a newline. */
static void test_read_vram(void **state)
{
  char path[] = "/tmp/hprun-vram-XXXXXX";
  int fd = mkstemp(path);
  double mib = -1;

  (void)state;
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "3221225472\n", 11), 11);
  close(fd);
  assert_int_equal(hp__sampler_read_vram(path, &mib), 0);
  assert_true(mib == 3072.0);
  fd = open(path, O_WRONLY | O_TRUNC);
  assert_true(fd >= 0);
  assert_int_equal(write(fd, "n/a\n", 4), 4);
  close(fd);
  assert_int_equal(hp__sampler_read_vram(path, &mib), HP_EIO);
  unlink(path);
  assert_int_equal(hp__sampler_read_vram(path, &mib), HP_EIO);
}

static void sh(hp_strv *v, const char *script)
{
  assert_int_equal(hp__strv_push(v, "/bin/sh"), 0);
  assert_int_equal(hp__strv_push(v, "-c"), 0);
  assert_int_equal(hp__strv_push(v, script), 0);
}

static void test_sampler_beside_child(void **state)
{
  uv_loop_t loop;
  hp_strv argv = {NULL, 0, 0}, sampler = {NULL, 0, 0};
  hp__child_spec spec;
  hp__child_result res;
  char *mem = hp__asprintf("%s/mem.txt", tmpdir), *text = NULL;

  (void)state;
  assert_int_equal(uv_loop_init(&loop), 0);
  sh(&argv, "sleep 1");
  /* A header, two readings while the child lives, and one more when it is told to stop: that
   * last one comes after the child ended and must not count. */
  sh(&sampler,
     "trap 'echo 1000; exit 0' TERM; echo 'used [MiB]'; echo 10; echo 30; "
     "while :; do sleep 0.05; done");
  memset(&spec, 0, sizeof(spec));
  spec.argv = &argv;
  spec.sampler = &sampler;
  spec.sampler_scale = 2;
  spec.sampler_path = mem;
  assert_int_equal(hp__child_run(&loop, &spec, &res), 0);
  assert_int_equal(res.exit_status, 0);
  assert_int_equal(res.sampler_error, 0);
  assert_int_equal(res.mem_samples, 2);
  assert_true(res.mem_mean_mib == 40.0);
  assert_true(res.mem_peak_mib == 60.0);
  assert_int_equal(hp__read_file(mem, &text, NULL), 0);
  assert_string_equal(text, "used [MiB]\n10\n30\n1000\n");
  free(text);

  /* A sampler that cannot start costs no run and leaves the readings empty. */
  hp_strv_free(&sampler);
  assert_int_equal(hp__strv_push(&sampler, "/nonexistent/sampler"), 0);
  hp_strv_free(&argv);
  sh(&argv, "exit 3");
  spec.sampler_path = NULL;
  assert_int_equal(hp__child_run(&loop, &spec, &res), 0);
  assert_int_equal(res.exit_status, 3);
  assert_int_equal(res.sampler_error, UV_ENOENT);
  assert_int_equal(res.mem_samples, 0);
  assert_true(isnan(res.mem_mean_mib));
  assert_true(isnan(res.mem_peak_mib));

  free(mem);
  hp_strv_free(&argv);
  hp_strv_free(&sampler);
  uv_run(&loop, UV_RUN_DEFAULT);
  assert_int_equal(uv_loop_close(&loop), 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reading_is_last_number),
      cmocka_unit_test(test_read_vram),
      cmocka_unit_test(test_reading_scale),
      cmocka_unit_test(test_sampler_beside_child),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
