/*
 * The tables of the vector number reader hp__ncu_num16 (ncu_num.h), built once per process: where
 * each digit of a number of a given shape goes, and where its thousands separators must be.
 */
#include "profile/ncu_num.h"

#include <pthread.h>

uint8_t hp__ncu_num_shuf[512][16];
uint16_t hp__ncu_num_commas[17];
hp__ncu_shape hp__ncu_num_shape[2 * 17 * 17];
const double hp__ncu_num_p10[16] = {1e0, 1e1, 1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                    1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
_Alignas(16) const uint8_t hp__ncu_num_k[4][16] = {
    {'0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0', '0'},
    {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9},
    {',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ',', ','},
    {'.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.', '.'}};

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* The shapes (see hp__ncu_shape), from the comma masks: a field of n bytes with its first point
 * at e (n: none), with commas or not. */
static void build_shapes(void)
{
  unsigned c, e, n, lm, commas;
  hp__ncu_shape *sh;

  for (c = 0; c < 2; c++)
    for (e = 0; e <= 16; e++)
      for (n = 0; n <= 16; n++) {
        sh = &hp__ncu_num_shape[(c * 17 + e) * 17 + n];
        sh->want = 0xffffffffu;
        sh->shuf = 0;
        sh->f = 0;
        /* A digit first, the point (if any) not last; commas only in an integer part that has
         * room for whole groups after 1-3 digits (hp__ncu_num_commas). */
        if (n == 0 || e == 0 || e > n || e == n - 1)
          continue;
        commas = c ? hp__ncu_num_commas[e] : 0;
        if (c && (commas == 0 || commas == 0xffff))
          continue;
        lm = (1u << n) - 1u;
        sh->f = (uint8_t)(e < n ? n - e - 1 : 0);
        sh->want = (lm & ~commas & ~(e < n ? 1u << e : 0u)) | commas << 16;
        sh->shuf = (uint16_t)(c * 256 + (e - 1) * 16 + sh->f);
      }
}

/* Entry (commas, E, f): lane t of the result holds digit 15 - t counted from the number's last
 * digit; fraction digits come from after the point, integer digits from before it, skipping a
 * comma after every three where the integer part has them. 0x80: a zero lane. */
static void build(void)
{
  unsigned c, e, f, t, j, k, nint;
  uint8_t *row;

  for (c = 0; c < 2; c++)
    for (e = 1; e <= 16; e++)
      for (f = 0; f < 16; f++) {
        row = hp__ncu_num_shuf[c * 256 + (e - 1) * 16 + f];
        nint = c ? e - (e - 1) / 4 : e;
        for (t = 0; t < 16; t++) {
          j = 15 - t;
          if (j < f) {
            row[t] = (uint8_t)(e + f - j);
          } else if ((k = j - f) < nint && (c ? k + k / 3 : k) < e) {
            row[t] = (uint8_t)(e - 1 - (c ? k + k / 3 : k));
          } else {
            row[t] = 0x80;
          }
        }
      }
  /* Commas at E-4, E-8, ... down to byte 1, leaving 1-3 digits before the first; none fits an
   * integer part of 4, 8, 12 or 16 bytes (0xffff matches no 16-bit mask with bit 0 clear). */
  for (e = 1; e <= 16; e++) {
    hp__ncu_num_commas[e] = 0;
    if (e % 4 == 0) {
      hp__ncu_num_commas[e] = 0xffff;
      continue;
    }
    for (k = 4; k < e; k += 4)
      hp__ncu_num_commas[e] |= (uint16_t)(1u << (e - k));
  }
  build_shapes();
}

void hp__ncu_num_init(void)
{
  pthread_once(&once, build);
}

int hp__ncu_num_slow(const char *s, size_t n, double *out)
{
  return hp__ncu_num(s, n, out);
}

#if defined(HP__NCU_NUM16)
HP__NCU_AVX2 int hp__ncu_num16_call(const char *s, size_t n, double *out)
{
  return hp__ncu_num16(s, n, out);
}
#endif
