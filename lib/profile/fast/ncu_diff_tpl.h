/*
 * The two passes of the diff splitter (lib/profile/fast/ncu_diff.c), written once and compiled
 * there twice: portable and AVX2 (util/sys/cpu.h). The includer defines
 *   TPL(name)  the name of a function at this level (name_avx2, name_portable),
 *   TPL_ATTR   the level's target attribute (HP__AVX2, or empty),
 *   TPL_AVX2   1 for the AVX2 code, 0 for the portable code (for #if),
 * and the types and helpers of ncu_diff.c (`line`, `diff`, low(), bits(), next_end(), rest()).
 */

/* Bit i set where p[i] == c, for the 64 bytes at p. */
static HP__DIFF_INLINE TPL_ATTR uint64_t TPL(bmask)(const char *p, char c)
{
#if TPL_AVX2
  const __m256i v = _mm256_set1_epi8(c);
  uint32_t lo = (uint32_t)_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)p), v));
  uint32_t hi = (uint32_t)_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(p + 32)), v));

  return (uint64_t)lo | (uint64_t)hi << 32;
#else
  uint64_t m = 0;
  int k;

  for (k = 0; k < 64; k++)
    m |= (uint64_t)(p[k] == c) << k;
  return m;
#endif
}

/* Bit i set where a[i] == b[i], for 64 bytes. */
static HP__DIFF_INLINE TPL_ATTR uint64_t TPL(emask)(const char *a, const char *b)
{
#if TPL_AVX2
  uint32_t lo = (uint32_t)_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)a),
                        _mm256_loadu_si256((const __m256i *)(const void *)b)));
  uint32_t hi = (uint32_t)_mm256_movemask_epi8(
      _mm256_cmpeq_epi8(_mm256_loadu_si256((const __m256i *)(const void *)(a + 32)),
                        _mm256_loadu_si256((const __m256i *)(const void *)(b + 32))));

  return (uint64_t)lo | (uint64_t)hi << 32;
#else
  uint64_t m = 0;
  int k;

  for (k = 0; k < 64; k++)
    m |= (uint64_t)(a[k] == b[k]) << k;
  return m;
#endif
}

/* One word of pass 1: the separators of word b (q, c: its quote and comma masks; qn, cn: the next
 * word's), stored; *ov collects separators that share a quote with the one two bytes before. */
static HP__DIFF_INLINE TPL_ATTR uint64_t TPL(seps)(uint64_t *em, size_t b, uint64_t q, uint64_t c,
                                                   uint64_t qn, uint64_t cn, uint64_t prev,
                                                   uint64_t *ov)
{
  /* `","` at byte i: a quote at i and i + 2, a comma at i + 1 (the next word's first bytes for
   * the last two). */
  uint64_t sep = q & (c >> 1 | cn << 63) & (q >> 2 | qn << 62);

  *ov |= sep & (sep >> 2 | prev >> 62);
  em[b] = sep;
  return sep;
}

/* Pass 1: the field ends of the line (see hp__ncu_masks), with the quotes counted. Returns the
 * line's fields (separators + 1), or 0 when the line is not of the form (see ncu_diff.c) or has
 * more than cap fields. m has room for nw + 2 words. */
static TPL_ATTR size_t TPL(masks)(hp__ncu_masks *m, const line *ln, size_t cap)
{
  const char *s = ln->s, *w;
  uint64_t *em = m->em, q, c, qn, cn, sep = 0, ov = 0;
  size_t b, nw = ln->nw, nq = 0, ns = 0, n = ln->n;

  w = line_word(ln, 0);
  q = TPL(bmask)(w, '"');
  c = TPL(bmask)(w, ',');
  /* The words whose next word lies whole in the line, then the last one or two. */
  for (b = 0; b + 2 < nw; b++) {
    qn = TPL(bmask)(s + 64 * b + 64, '"');
    cn = TPL(bmask)(s + 64 * b + 64, ',');
    sep = TPL(seps)(em, b, q, c, qn, cn, sep, &ov);
    ns += (size_t)__builtin_popcountll(sep);
    nq += (size_t)__builtin_popcountll(q);
    q = qn;
    c = cn;
  }
  for (; b < nw; b++) {
    qn = cn = 0;
    if (b + 1 < nw) {
      w = line_word(ln, b + 1);
      qn = TPL(bmask)(w, '"');
      cn = TPL(bmask)(w, ',');
    }
    sep = TPL(seps)(em, b, q, c, qn, cn, sep, &ov);
    ns += (size_t)__builtin_popcountll(sep);
    nq += (size_t)__builtin_popcountll(q);
    q = qn;
    c = cn;
  }
  if (ov || (em[0] & 1) || ns + 1 > cap || nq != 2 * (ns + 1) ||
      (n >= 3 && (em[(n - 3) / 64] >> ((n - 3) % 64) & 1)))
    return 0;
  em[(n - 1) / 64] |= (uint64_t)1 << ((n - 1) % 64);
  em[nw] = em[nw + 1] = 0;
  m->nw = nw;
  return ns + 1;
}

/* The bits of the 64 bytes of the line from byte `at` that differ from the reference's at shift
 * `delta` (the line's byte i is compared with the reference's byte i - delta), none past the
 * line's end. */
static HP__DIFF_INLINE TPL_ATTR uint64_t TPL(dmask)(const diff *d, size_t at, ptrdiff_t delta)
{
  const line *ln = &d->ln;

  if (at + 64 <= ln->n)
    return ~TPL(emask)(ln->s + at, d->rs + ((ptrdiff_t)at - delta));
  return ~TPL(emask)(ln->tail + (at - ln->tb), d->rs + ((ptrdiff_t)at - delta)) &
      (((uint64_t)1 << (ln->n - at)) - 1);
}

/* Pass 2: the changed fields, in order (cf); returns their count. Field k of the line and of the
 * reference start after their field ends k - 1, which the shift `delta` pairs (the line's byte i
 * with the reference's byte i - delta); `pc` is the line's (-2 before field 0, whose opening
 * quote is byte 0). Each step looks at the 64 bytes from p = pc + 1 (or further on, inside a long
 * field): the bytes that differ (dm) and the field ends of both lines there (el, er). Up to the
 * first end that only one line has, the ends agree: every field that closes there has the
 * reference's length, and it changed where a byte of it (its quotes and the separator before it
 * included) differs; those are found all at once, a differing byte's carry running up to its
 * field's end. The field that holds the first unpaired end has another length: it is listed,
 * and the shift becomes the distance between its two ends. */
static TPL_ATTR size_t TPL(compare)(hp__ncu_split *sp, const diff *d)
{
  const uint64_t *lm = sp->m.em, *rm = d->rm;
  hp__ncu_cf *cf = sp->cf, *out = cf;
  size_t n = d->ln.n, k = 0, p = 0, t, lc, rc, from, r;
  ptrdiff_t pc = -2, delta = 0;
  uint64_t dm, el, er, x, ends, f, below;

  for (;;) {
    dm = TPL(dmask)(d, p, delta);
    el = bits(lm, p);
    er = bits(rm, (size_t)((ptrdiff_t)p - delta));
    x = el ^ er;
    ends = el & ((x & (0 - x)) - 1); /* all of el where x is 0 */
    if (ends) {
      t = 63 - (size_t)__builtin_clzll(ends);
      for (f = ((dm & (~(uint64_t)0 >> (63 - t))) + ~el) & ends; f; f &= f - 1) {
        below = el & ((f & (0 - f)) - 1);
        out->col = (uint32_t)(k + (size_t)__builtin_popcountll(below));
        out->off = (uint32_t)(below ? p + 66 - (size_t)__builtin_clzll(below) : (size_t)(pc + 3));
        out->len = (uint32_t)(p + low(f) - out->off);
        out++;
      }
      k += (size_t)__builtin_popcountll(ends);
      pc = (ptrdiff_t)(p + t);
      if (p + t == n - 1)
        break;
      if (!x) {
        p += t + 1;
        continue;
      }
    } else if (!x && !dm) {
      p += 64; /* within one long field, nothing differs yet */
      continue;
    }
    /* Field k holds the first unpaired end, or (in a window without ends) a difference: both
     * lines' ends of it are the first at or after its start, most often in this window. */
    from = pc < 0 ? 0 : (size_t)pc + 1;
    r = from > p ? from - p : 0;
    lc = el >> r ? p + r + low(el >> r) : next_end(lm, sp->m.nw + 2, p + 64);
    out->col = (uint32_t)k;
    out->off = (uint32_t)(pc + 3);
    out->len = (uint32_t)(lc - (size_t)(pc + 3));
    out++;
    if (lc == n - 1)
      break;
    if (er >> r)
      rc = (size_t)((ptrdiff_t)(p + r + low(er >> r)) - delta);
    else if ((rc = next_end(rm, d->rnw + 2, (size_t)((ptrdiff_t)p - delta) + 64)) == SIZE_MAX)
      return rest(sp, n, (size_t)(out - cf), k + 1, lc);
    delta = (ptrdiff_t)lc - (ptrdiff_t)rc;
    pc = (ptrdiff_t)lc;
    p = lc + 1;
    k++;
  }
  return (size_t)(out - cf);
}

/* Both passes. Returns the fields, or 0 (see masks). */
static TPL_ATTR size_t TPL(split)(hp__ncu_split *sp, const diff *d)
{
  size_t nf = TPL(masks)(&sp->m, &d->ln, sp->cap);

  if (nf > 0)
    sp->nchg = TPL(compare)(sp, d);
  return nf;
}
