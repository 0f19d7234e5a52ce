/*
 * A CSV reader over a test's own bytes: they are written to a new temporary file, which
 * hp__csv_open_path opens and which is unlinked at once, so that the reader refills from a real
 * descriptor, as it does for a profiler's file, and nothing is left behind.
 */
#ifndef HPRUN_TEST_CSV_MEM_H
#define HPRUN_TEST_CSV_MEM_H

#include "util/csv/csv.h"

#include <stdlib.h>
#include <unistd.h>

/* hp__csv_open_path on a file that holds data[0..len). Returns its code, or HP_EIO when the file
 * cannot be written. */
static int csv_open_bytes(hp__csv **out, const char *data, size_t len, const hp__csv_opts *o)
{
  char path[] = "/tmp/hprun-csv-test.XXXXXX";
  int fd = mkstemp(path), r = HP_EIO;
  size_t off = 0;
  ssize_t n = 1;

  *out = NULL;
  if (fd < 0)
    return HP_EIO;
  while (off < len && (n = write(fd, data + off, len - off)) > 0)
    off += (size_t)n;
  if (close(fd) == 0 && off == len)
    r = hp__csv_open_path(out, path, o);
  unlink(path);
  return r;
}

#endif /* HPRUN_TEST_CSV_MEM_H */
