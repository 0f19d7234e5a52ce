/*
 * The list of profile tables, and the three tables whose rows are kept in file order: the files
 * read, leak checks and agents. What every description shares (rows, cells, the distinct-value
 * join) is in cells.c. The model is in docs/internals/tables.md.
 */
#include "profile/tables/table.h"

const hp__table *const hp__tables[] = {
    &hp__tab_api,        &hp__tab_hsa,       &hp__tab_copies,      &hp__tab_kernels,
    &hp__tab_categories, &hp__tab_stacks,    &hp__tab_pmc,         &hp__tab_leaks,
    &hp__tab_ncu,        &hp__tab_agents,    &hp__tab_ncu_device,  &hp__tab_ncu_launch,
    &hp__tab_san_runs,   &hp__tab_san_kinds, &hp__tab_san_kernels, &hp__tab_cpu_ops,
    &hp__tab_timeline,
};
const size_t hp__ntables = sizeof(hp__tables) / sizeof(hp__tables[0]);

const hp__table *hp__table_by_bit(unsigned bit)
{
  size_t i;

  if (hp__files_table.bit == bit)
    return &hp__files_table;
  for (i = 0; i < hp__ntables; i++)
    if (hp__tables[i]->bit == bit)
      return hp__tables[i];
  return NULL;
}

/* ---------------------------------------------------------------------------------------------- */
/* Files read: their path, format, and the tables each fed.                                         */

#define AT HP__C_AT
#define JC (HP__IN_JSON | HP__IN_CSV)
#define R HP__C_RIGHT
#define FILE_AT(M) HP__AT(hp__pfile, M)

static const hp__col file_cols[] = {
    {"path", NULL, "file", HP__V_STR, HP__IN_ALL, AT, FILE_AT(path), 0, NULL, NULL},
    {"format", NULL, NULL, HP__V_STR, HP__IN_ALL, AT, FILE_AT(format), 0, NULL, NULL},
    {"tables", NULL, NULL, HP__V_TABLES, HP__IN_JSON, AT, FILE_AT(tables), 0, NULL, NULL},
};

static int files_open(hp__rows *r, int arg)
{
  r->src = r->p->files;
  r->total = r->p->nfiles;
  return 0;
}

const hp__table hp__files_table = {
    .key = "files",
    .title = "Files",
    HP__COLS(file_cols),
    .size = sizeof(hp__pfile),
    .open = files_open,
};

/* ---------------------------------------------------------------------------------------------- */
/* Leak checks, in the order the files printed them.                                               */

#define LEAK_AT(M) HP__AT(hp__leak, M)

/* The one column that is not a member, "where" (file:line), is the only one leaks_get fetches. */
static const hp__col leak_cols[] = {
    {"file", NULL, NULL, HP__V_STR, JC, AT, LEAK_AT(file), 0, NULL, NULL},
    {"line", NULL, NULL, HP__V_INT, JC, AT, LEAK_AT(line), 0, NULL, NULL},
    {"scope", NULL, NULL, HP__V_STR, HP__IN_ALL, AT, LEAK_AT(scope), 0, NULL, NULL},
    {"size", NULL, NULL, HP__V_NUM, HP__IN_TEXT, AT | R | HP__C_BYTES, LEAK_AT(bytes), 0, NULL,
     NULL},
    {"bytes", NULL, NULL, HP__V_NUM, HP__IN_ALL, AT | R, LEAK_AT(bytes), 0, "%.0f", NULL},
    {"where", NULL, NULL, HP__V_STR, HP__IN_TEXT, 0, 0, 0, NULL, NULL},
    {"text", NULL, NULL, HP__V_STR, JC, AT, LEAK_AT(text), 0, NULL, NULL},
};

static int leaks_open(hp__rows *r, int arg)
{
  r->src = r->p->leaks;
  r->total = r->p->nleaks;
  return 0;
}

static int leaks_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__leak *l = &r->p->leaks[id];

  hp__buf_reset(tmp);
  if (hp__buf_printf(tmp, "%s:%lld", l->file, l->line))
    return HP_ENOMEM;
  hp__cell_setstr(c, tmp->data);
  return 0;
}

static long long leaks_dropped(const hp_profile *p)
{
  return p->leaks_dropped;
}

const hp__table hp__tab_leaks = {
    .key = "leakcheck",
    .title = "Leak check (--memory-usage)",
    HP__COLS(leak_cols),
    .bit = HP__TB_LEAK,
    .size = sizeof(hp__leak),
    .open = leaks_open,
    .get = leaks_get,
    .note = "These are hipprof --memory-usage leak checks at process exit: memory not released, "
            "counted with the runtime's and the profiler's own allocations. They are not peak or "
            "steady-state device memory; compare a fresh run before calling anything a leak.",
    .dropped = leaks_dropped,
};

/* ---------------------------------------------------------------------------------------------- */
/* Agents (rocprofv3 agent info). Unknown sizes are -1 in the model, missing here (HP__C_OPT).     */

#define AGENT_AT(M) HP__AT(hp__agent, M)

static const hp__col agent_cols[] = {
    {"type", NULL, NULL, HP__V_STR, HP__IN_ALL, AT, AGENT_AT(type), 0, NULL, NULL},
    {"name", NULL, NULL, HP__V_STR, HP__IN_ALL, AT, AGENT_AT(name), 0, NULL, NULL},
    {"product", NULL, NULL, HP__V_STR, HP__IN_ALL, AT, AGENT_AT(product), 0, NULL, NULL},
    {"wave_size", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R | HP__C_OPT, AGENT_AT(wave_size), 0,
     NULL, NULL},
    {"cu_count", NULL, NULL, HP__V_INT, HP__IN_ALL, AT | R | HP__C_OPT, AGENT_AT(cu_count), 0, NULL,
     NULL},
};

static int agents_open(hp__rows *r, int arg)
{
  r->src = r->p->agents;
  r->total = r->p->nagents;
  return 0;
}

const hp__table hp__tab_agents = {
    .key = "agents",
    .title = "Agents",
    HP__COLS(agent_cols),
    .bit = HP__TB_AGENT,
    .size = sizeof(hp__agent),
    .open = agents_open,
};
