/*
 * A session's progress, so that a long pass does not look hung: which run of how many, the time
 * since the first run, an estimate of the time left and the previous run's value. The formatters
 * at the top are pure (unit-tested); the rest keeps one session's state and prints to its log.
 *
 * Why a wrapper around the log on a terminal: the children's live output and hprun's own messages
 * are written to the log while the status line is shown; the wrapper (a stdio cookie stream that
 * the session hands out as its log) clears the line before each write and redraws it after each
 * complete line, so nothing is garbled and the exec module needs no change.
 */
#include "session/progress.h"
#include "session/session.h"
#include "hprun_stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void hp__progress_time(double s, char *buf, size_t size)
{
  long long t;

  if (size == 0)
    return;
  if (!(s >= 0) || s > 1e12) {
    snprintf(buf, size, "--:--:--");
    return;
  }
  t = (long long)(s + 0.5);
  snprintf(buf, size, "%02lld:%02lld:%02lld", t / 3600, t / 60 % 60, t % 60);
}

double hp__progress_eta(const hp__progress_pass *p, size_t n)
{
  double sum = 0, eta = 0;
  long done = 0;
  size_t i;

  for (i = 0; i < n; i++) {
    sum += p[i].wall_ms_sum;
    done += p[i].done;
  }
  if (done == 0)
    return -1;
  for (i = 0; i < n; i++) {
    double mean = p[i].done ? p[i].wall_ms_sum / p[i].done : sum / (double)done;
    eta += mean * (p[i].left > 0 ? p[i].left : 0);
  }
  return eta / 1000.0;
}

void hp__progress_outcome(const hp_run *run, const char *unit, char *buf, size_t size)
{
  if (run->error)
    snprintf(buf, size, "%s", run->wall_ms > 0 ? "output lost" : "could not start");
  else if (run->timed_out)
    snprintf(buf, size, "timed out");
  else if (run->interrupted)
    snprintf(buf, size, "interrupted");
  else if (run->term_signal)
    snprintf(buf, size, "signal %d", run->term_signal);
  else if (run->exit_status)
    snprintf(buf, size, "exit %lld", run->exit_status);
  else if (run->values == NULL || isnan(run->values[0]))
    snprintf(buf, size, "no value");
  else
    snprintf(buf, size, "%.4f%s%s", run->values[0], unit && unit[0] ? " " : "", unit ? unit : "");
}

/* "[37/120] pmc run 4/10", after "n=1048576 (2/4) " in a sweep */
static int head(const hp__progress_state *st, char *buf, size_t size)
{
  int n = 0;

  if (st->combo)
    n = snprintf(buf, size, "%s (%zu/%zu) ", st->combo, st->combo_k, st->combo_n);
  if (n < 0 || (size_t)n >= size)
    return n;
  return n +
      snprintf(buf + n, size - (size_t)n, "[%zu/%zu] %s %s %d/%d", st->k, st->n, st->unit,
               st->warmup ? "warmup" : "run", st->run, st->runs);
}

void hp__progress_status(const hp__progress_state *st, char *buf, size_t size)
{
  char el[32], eta[32];
  int n = head(st, buf, size);

  if (n < 0 || (size_t)n >= size)
    return;
  hp__progress_time(st->elapsed_s, el, sizeof(el));
  hp__progress_time(st->eta_s, eta, sizeof(eta));
  n += snprintf(buf + n, size - (size_t)n, " \xc2\xb7 %s elapsed \xc2\xb7 ETA %s", el, eta);
  if (st->last && (size_t)n < size)
    n += snprintf(buf + n, size - (size_t)n, " \xc2\xb7 last %s", st->last);
  if (st->open && n >= 0 && (size_t)n < size)
    snprintf(buf + n, size - (size_t)n, " \xc2\xb7 open %s", st->open);
}

void hp__progress_done(const hp__progress_state *st, double wall_ms, char *buf, size_t size)
{
  int n = head(st, buf, size);

  if (n >= 0 && (size_t)n < size)
    snprintf(buf + n, size - (size_t)n, ": %s, wall %.2f s", st->last ? st->last : "",
             wall_ms / 1000.0);
}

void hp__progress_pass_line(const char *unit, int runs, int failed, double median,
                            const char *munit, char *buf, size_t size)
{
  int n = snprintf(buf, size, "%s: %d run%s", unit, runs, runs == 1 ? "" : "s");

  if (failed && n >= 0 && (size_t)n < size)
    n += snprintf(buf + n, size - (size_t)n, ", %d failed", failed);
  if (n < 0 || (size_t)n >= size)
    return;
  if (isnan(median))
    snprintf(buf + n, size - (size_t)n, ", no value");
  else
    snprintf(buf + n, size - (size_t)n, ", median %.4g%s%s", median, munit && munit[0] ? " " : "",
             munit ? munit : "");
}

/* ---- one session's progress ---- */

typedef struct hp__progress {
  hp__session_ctx *c;
  FILE *log; /* the real log stream */
  int tty;   /* 1: status line redrawn in place; 0: one line per finished run */
  int shown; /* the status line is on the screen now */
  int running;
  size_t cur; /* the slot that runs (or ran last) */
  uint64_t t0;
  hp__progress_pass *pass;
  char *ended; /* per unit: its line was printed (hp__progress_pass_end) */
  char last[64];
  int have_last;
  uv_timer_t timer;
} hp__progress;

static void fill_state(const hp__progress *p, size_t i, hp__progress_state *st)
{
  const hp__session_ctx *c = p->c;
  const hp__slot *sl = &c->slots[i];

  memset(st, 0, sizeof(*st));
  st->k = i + 1;
  st->n = c->nslots;
  st->unit = c->units[sl->unit].name;
  st->warmup = sl->warmup;
  st->run = sl->k;
  st->runs = sl->warmup ? c->s->warmup : c->units[sl->unit].repeat;
  st->elapsed_s = (double)(uv_hrtime() - p->t0) / 1e9;
  st->eta_s = hp__progress_eta(p->pass, c->nunits);
  st->last = p->have_last ? p->last : NULL;
  st->open = c->open_note[0] ? c->open_note : NULL;
  if (c->s->combo && c->plan->combo >= 0) {
    st->combo = c->s->combo;
    st->combo_k = (size_t)c->plan->combo + 1;
    st->combo_n = hp_plan_combinations(c->plan);
  }
}

static void draw(hp__progress *p)
{
  hp__progress_state st;
  char line[512];

  fill_state(p, p->cur, &st);
  hp__progress_status(&st, line, sizeof(line));
  fprintf(p->log, "\r\033[K%s", line);
  fflush(p->log);
  p->shown = 1;
}

static void clear(hp__progress *p)
{
  if (p->shown) {
    fputs("\r\033[K", p->log);
    p->shown = 0;
  }
}

/* The log wrapper's write: clear, pass through, redraw after a complete line. */
static ssize_t wrap_write(void *cookie, const char *data, size_t n)
{
  hp__progress *p = cookie;

  clear(p);
  fwrite(data, 1, n, p->log);
  if (p->running && n && data[n - 1] == '\n')
    draw(p);
  else
    fflush(p->log);
  return (ssize_t)n;
}

static void on_tick(uv_timer_t *t)
{
  hp__progress *p = t->data;

  if (p->running)
    draw(p);
}

/* Whether the log is a terminal that can redraw a line in place. */
static int is_live_tty(FILE *log)
{
  const char *term = getenv("TERM");

  return isatty(fileno(log)) && !(term && strcmp(term, "dumb") == 0);
}

int hp__progress_open(hp__session_ctx *c)
{
  cookie_io_functions_t io = {NULL, wrap_write, NULL, NULL};
  hp__progress *p;
  size_t i;

  if (c->opts->quiet)
    return 0;
  if ((p = calloc(1, sizeof(*p))) == NULL ||
      (p->pass = calloc(c->nunits ? c->nunits : 1, sizeof(*p->pass))) == NULL ||
      (p->ended = calloc(c->nunits ? c->nunits : 1, 1)) == NULL) {
    if (p)
      free(p->pass);
    free(p);
    return HP_ENOMEM;
  }
  p->c = c;
  p->log = hp__session_log(c);
  p->tty = is_live_tty(p->log);
  for (i = 0; i < c->nslots; i++)
    p->pass[c->slots[i].unit].left++;
  if (p->tty) {
    /* Line-buffered, so each line reaches wrap_write whole. */
    if ((c->log_wrap = fopencookie(p, "w", io)) == NULL) {
      free(p->pass);
      free(p->ended);
      free(p);
      return HP_ENOMEM;
    }
    setvbuf(c->log_wrap, NULL, _IOLBF, 0);
    uv_timer_init(&c->loop, &p->timer);
    uv_unref((uv_handle_t *)&p->timer);
    p->timer.data = p;
  }
  c->progress = p;
  return 0;
}

void hp__progress_run_start(hp__session_ctx *c, size_t i)
{
  hp__progress *p = c->progress;

  if (p == NULL)
    return;
  if (p->t0 == 0)
    p->t0 = uv_hrtime();
  p->cur = i;
  p->running = 1;
  if (p->tty) {
    draw(p);
    uv_timer_start(&p->timer, on_tick, 1000, 1000);
  }
}

void hp__progress_run_end(hp__session_ctx *c, size_t i, const hp_run *run)
{
  hp__progress *p = c->progress;
  hp__progress_pass *pp;
  const hp_metric_spec *m = c->plan->nmetrics ? &c->plan->metrics[0] : NULL;

  if (p == NULL)
    return;
  pp = &p->pass[c->slots[i].unit];
  pp->left--;
  if (run->wall_ms > 0) {
    pp->done++;
    pp->wall_ms_sum += run->wall_ms;
  }
  hp__progress_outcome(run, m ? m->unit : NULL, p->last, sizeof(p->last));
  p->have_last = 1;
  p->running = 0;
  if (p->tty) {
    uv_timer_stop(&p->timer);
    p->running = 1; /* the line stays up, with this run's value, until the next run */
    fflush(c->log_wrap);
    draw(p);
    p->running = 0;
  } else {
    hp__progress_state st;
    char line[512];
    fill_state(p, i, &st);
    hp__progress_done(&st, run->wall_ms, line, sizeof(line));
    fprintf(p->log, "%s\n", line);
  }
  if (pp->left == 0)
    hp__progress_pass_end(c, c->slots[i].unit);
}

void hp__progress_pass_end(hp__session_ctx *c, size_t unit)
{
  hp__progress *p = c->progress;
  const hp_pass_result *pr = &c->s->passes[unit];
  const hp_metric_spec *m = c->plan->nmetrics ? &c->plan->metrics[0] : NULL;
  double *v;
  char line[256];
  size_t i;
  int n = 0, failed = 0;

  if (p == NULL || !p->tty || p->ended[unit] || (v = malloc((pr->nruns + 1) * sizeof(*v))) == NULL)
    return;
  p->ended[unit] = 1;
  for (i = 0; i < pr->nruns; i++) {
    const hp_run *r = &pr->runs[i];
    if (r->warmup || r->skipped)
      continue;
    failed += !r->ok;
    if (r->ok && r->values)
      v[n++] = r->values[0];
  }
  hp__progress_pass_line(c->units[unit].name, n + failed, failed, hp_stats_median(v, (size_t)n),
                         m ? m->unit : NULL, line, sizeof(line));
  free(v);
  clear(p);
  fprintf(p->log, "%s\n", line);
  if (p->running)
    draw(p);
  fflush(p->log);
}

static void on_closed(uv_handle_t *h)
{
  hp__progress *p = h->data;

  free(p->pass);
  free(p->ended);
  free(p);
}

void hp__progress_close(hp__session_ctx *c)
{
  hp__progress *p = c->progress;

  if (p == NULL)
    return;
  c->progress = NULL;
  if (c->log_wrap) {
    fflush(c->log_wrap);
    fclose(c->log_wrap);
    c->log_wrap = NULL;
  }
  if (p->tty) {
    clear(p);
    fflush(p->log);
    uv_close((uv_handle_t *)&p->timer, on_closed);
    return;
  }
  free(p->pass);
  free(p->ended);
  free(p);
}
