/*
 * The fold's loop over a row's changed fields (lib/profile/ncu_fold.c), included there twice: once
 * as it is, reading numbers with hp__ncu_num, and once compiled for AVX2 (UPDATE_AVX2 defined),
 * reading those whose 16 bytes lie before `lim` with hp__ncu_num16 (ncu_num.h). GCC inlines a
 * function compiled for AVX2 only into one compiled for it too, and the reader must be inlined
 * (it runs ~190 times a PyTorch row), hence two copies of one text rather than a runtime test in
 * one; ncu_fold.c picks one per row from hp__ncu_isa().
 *
 * Parses the changed fields; a live column whose value changes first adds what it had pending.
 * Returns 1 when the list must be rebuilt (a field turned from a number into text or back), 0, or
 * HP_ENOMEM. What stays the same over the loop is in locals, the kernel's sums too: the stores
 * into the sums could otherwise alias the fold's fields (rows is a long long, as the counts are)
 * and force reloads.
 */
#if defined(UPDATE_AVX2)
static HP__NCU_AVX2 int update_avx2(hp__ncu_fold *fo, hp_profile *p, const hp__csv_rec *rec,
                                    size_t width, const uint32_t *chg, size_t nchg, uintptr_t lim)
#else
static int update(hp__ncu_fold *fo, hp_profile *p, const hp__csv_rec *rec, size_t width,
                  const uint32_t *chg, size_t nchg, uintptr_t lim)
#endif
{
  const int32_t *mids = fo->mids;
  hp__ncu_col *col = fo->col, *c;
  long long rows = fo->rows, r;
  uint32_t kid = fo->kid;
  hp__ncu_kernel *nk = fo->pending ? &p->ncu[kid] : NULL;
  double *msum = nk ? nk->msum : NULL, v;
  long long *mn = nk ? nk->mn : NULL;
  size_t ncap = nk ? nk->ncap : 0, j, i;
  int was, k, rebuild = 0;

  (void)lim;
  for (j = 0; j < nchg; j++) {
    if ((i = chg[j]) >= width || mids[i] < 0)
      continue;
    c = &col[i];
    /* A live column's old value is added for the rows that had it (nothing is pending on the
     * first row after a flush: nk is NULL then). */
    if ((was = c->live) && nk) {
      r = rows - c->since;
      if (r == 1 && (size_t)c->mid < ncap) {
        msum[c->mid] += c->v;
        mn[c->mid]++;
      } else {
        if (add_copies_slow(p, kid, (uint32_t)c->mid, c->v, r))
          return HP_ENOMEM;
        msum = nk->msum; /* it may have grown the sums */
        mn = nk->mn;
        ncap = nk->ncap;
      }
      c->since = rows;
    }
#if defined(UPDATE_AVX2)
    if ((uintptr_t)rec->f[i] + 16 <= lim)
      k = hp__ncu_num16(rec->f[i], rec->len[i], &v);
    else
#endif
      k = hp__ncu_num(rec->f[i], rec->len[i], &v);
    c->k = k;
    c->v = v;
    /* A column that turned from a number into text or back changes the list. */
    rebuild |= was != (k > 0);
  }
  return rebuild;
}
