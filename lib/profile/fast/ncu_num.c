/*
 * The tables of the vector number reader hp__ncu_num16 (ncu_num.h), built once per process: where
 * each digit of a number of a given shape goes, and where its thousands separators must be.
 */
#include "profile/fast/ncu_num.h"

#include <pthread.h>
#include <string.h>

hp__ncu_shapes hp__ncu_num_shapes;
_Alignas(32) const uint8_t hp__ncu_num_k[3][32] = {
    {'0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0',
     ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ','},
    {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {'.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.',
     '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.'}};

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The comma mask an integer part of E bytes must have, at [E]: commas at E-4, E-8, ... down to
 * byte 1, leaving 1-3 digits before the first; none fits an integer part of 4, 8, 12 or 16 bytes
 * (0xffff matches no 16-bit mask with bit 0 clear). */
static uint16_t commas_of(unsigned e)
{
  uint16_t m = 0;
  unsigned k;

  if (e % 4 == 0)
    return 0xffff;
  for (k = 4; k < e; k += 4)
    m |= (uint16_t)(1u << (e - k));
  return m;
}

/* The digit shuffle of a number with an integer part of e bytes, f digits after the point and
 * commas or not: lane t of the result holds digit 15 - t counted from the number's last digit;
 * fraction digits come from after the point, integer digits from before it, skipping a comma
 * after every three where the integer part has them. 0x80: a zero lane. */
static void shuffle_of(uint8_t *row, unsigned c, unsigned e, unsigned f)
{
  unsigned t, j, k, nint = c ? e - (e - 1) / 4 : e;

  for (t = 0; t < 16; t++) {
    j = 15 - t;
    if (j < f)
      row[t] = (uint8_t)(e + f - j);
    else if ((k = j - f) < nint && (c ? k + k / 3 : k) < e)
      row[t] = (uint8_t)(e - 1 - (c ? k + k / 3 : k));
    else
      row[t] = 0x80;
  }
}

/* The shapes (see hp__ncu_shape): a field of n bytes with its first point at e (n: none), with
 * commas or not. */
static void build(void)
{
  static const double p10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
  unsigned c, e, n, lm, commas, f, ix;
  hp__ncu_shape *sh;

  for (c = 0; c < 2; c++)
    for (e = 0; e <= 16; e++)
      for (n = 1; n <= 16; n++) {
        ix = hp__ncu_num_idx(c, e, n);
        sh = &hp__ncu_num_shapes.sh[ix];
        sh->want = 0xffffffffu;
        sh->div = 1.0;
        memset(hp__ncu_num_shapes.shuf[ix], 0x80, 16);
        /* A digit first, the point (if any) not last; commas only in an integer part that has
         * room for whole groups after 1-3 digits (commas_of). */
        if (e == 0 || e > n || e == n - 1)
          continue;
        commas = c ? commas_of(e) : 0;
        if (c && (commas == 0 || commas == 0xffff))
          continue;
        lm = (1u << n) - 1u;
        f = e < n ? n - e - 1 : 0;
        sh->want = (lm & ~commas & ~(e < n ? 1u << e : 0u)) | commas << 16;
        sh->div = p10[f];
        shuffle_of(hp__ncu_num_shapes.shuf[ix], c, e, f);
      }
}

void hp__ncu_num_init(void)
{
  pthread_once(&once, build);
}
