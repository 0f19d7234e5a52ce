/*
 * Header lookup for CSV files: profilers rename their columns between versions and tools
 * ("LDS_Block_Size" in one, "lds" in another), so parsers ask for a column by a list of aliases
 * and get its index once, before reading the records.
 */
#include "util/csv/csv.h"
#include "util/num/num.h"

#include <string.h>
#include <strings.h>

int hp__csv_find(const hp__csv_rec *hdr, const char *names)
{
  const char *a = names;

  for (;;) {
    const char *bar = strchr(a, '|');
    size_t al = bar ? (size_t)(bar - a) : strlen(a), i;
    for (i = 0; i < hdr->n; i++) {
      const char *s = hdr->f[i];
      size_t n = hdr->len[i];
      hp__trim(&s, &n);
      if (n == al && strncasecmp(s, a, al) == 0)
        return (int)i;
    }
    if (bar == NULL)
      return -1;
    a = bar + 1;
  }
}

size_t hp__csv_map(const hp__csv_rec *hdr, const char *const *wanted, size_t n, int *idx)
{
  size_t i, found = 0;

  for (i = 0; i < n; i++) {
    idx[i] = hp__csv_find(hdr, wanted[i]);
    found += idx[i] >= 0;
  }
  return found;
}
