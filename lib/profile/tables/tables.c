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
    &hp__tab_san_runs,   &hp__tab_san_kinds, &hp__tab_san_kernels,
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

enum {
  F_PATH,
  F_FORMAT,
  F_TABLES
};

static const hp__col file_cols[] = {
    {.key = "path", .head = "file", .type = HP__V_STR, .in = HP__IN_ALL, .field = F_PATH},
    {.key = "format", .type = HP__V_STR, .in = HP__IN_ALL, .field = F_FORMAT},
    {.key = "tables", .type = HP__V_TABLES, .in = HP__IN_JSON, .field = F_TABLES},
};

static int files_open(hp__rows *r, int arg)
{
  r->total = r->p->nfiles;
  return 0;
}

static int files_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__pfile *f = &r->p->files[id];

  switch (field) {
  case F_PATH: hp__cell_setstr(c, f->path); break;
  case F_FORMAT: hp__cell_setstr(c, f->format); break;
  case F_TABLES: hp__cell_setint(c, f->tables); break;
  }
  return 0;
}

const hp__table hp__files_table = {
    .key = "files",
    .title = "Files",
    .cols = file_cols,
    .ncols = sizeof(file_cols) / sizeof(file_cols[0]),
    .open = files_open,
    .get = files_get,
};

/* ---------------------------------------------------------------------------------------------- */
/* Leak checks, in the order the files printed them.                                               */

enum {
  L_FILE,
  L_LINE,
  L_SCOPE,
  L_BYTES,
  L_WHERE,
  L_TEXT
};

static const hp__col leak_cols[] = {
    {.key = "file", .type = HP__V_STR, .in = HP__IN_JSON | HP__IN_CSV, .field = L_FILE},
    {.key = "line", .type = HP__V_INT, .in = HP__IN_JSON | HP__IN_CSV, .field = L_LINE},
    {.key = "scope", .type = HP__V_STR, .in = HP__IN_ALL, .field = L_SCOPE},
    {.key = "size",
     .type = HP__V_NUM,
     .in = HP__IN_TEXT,
     .flags = HP__C_RIGHT | HP__C_BYTES,
     .field = L_BYTES},
    {.key = "bytes",
     .type = HP__V_NUM,
     .in = HP__IN_ALL,
     .flags = HP__C_RIGHT,
     .field = L_BYTES,
     .tfmt = "%.0f"},
    {.key = "where", .type = HP__V_STR, .in = HP__IN_TEXT, .field = L_WHERE},
    {.key = "text", .type = HP__V_STR, .in = HP__IN_JSON | HP__IN_CSV, .field = L_TEXT},
};

static int leaks_open(hp__rows *r, int arg)
{
  r->total = r->p->nleaks;
  return 0;
}

static int leaks_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__leak *l = &r->p->leaks[id];

  switch (field) {
  case L_FILE: hp__cell_setstr(c, l->file); break;
  case L_LINE: hp__cell_setint(c, l->line); break;
  case L_SCOPE: hp__cell_setstr(c, l->scope); break;
  case L_BYTES: hp__cell_setnum(c, l->bytes); break;
  case L_TEXT: hp__cell_setstr(c, l->text); break;
  case L_WHERE:
    hp__buf_reset(tmp);
    if (hp__buf_printf(tmp, "%s:%ld", l->file, l->line))
      return HP_ENOMEM;
    hp__cell_setstr(c, tmp->data);
    break;
  }
  return 0;
}

static long long leaks_dropped(const hp_profile *p)
{
  return p->leaks_dropped;
}

const hp__table hp__tab_leaks = {
    .key = "leakcheck",
    .title = "Leak check (--memory-usage)",
    .cols = leak_cols,
    .ncols = sizeof(leak_cols) / sizeof(leak_cols[0]),
    .bit = HP__TB_LEAK,
    .open = leaks_open,
    .get = leaks_get,
    .note = "These are hipprof --memory-usage leak checks at process exit: memory not released, "
            "counted with the runtime's and the profiler's own allocations. They are not peak or "
            "steady-state device memory; compare a fresh run before calling anything a leak.",
    .dropped = leaks_dropped,
};

/* ---------------------------------------------------------------------------------------------- */
/* Agents (rocprofv3 agent info). Unknown sizes are -1 in the model.                               */

enum {
  A_TYPE,
  A_NAME,
  A_PRODUCT,
  A_WAVE,
  A_CUS
};

static const hp__col agent_cols[] = {
    {.key = "type", .type = HP__V_STR, .in = HP__IN_ALL, .field = A_TYPE},
    {.key = "name", .type = HP__V_STR, .in = HP__IN_ALL, .field = A_NAME},
    {.key = "product", .type = HP__V_STR, .in = HP__IN_ALL, .field = A_PRODUCT},
    {.key = "wave_size",
     .type = HP__V_INT,
     .in = HP__IN_ALL,
     .flags = HP__C_RIGHT,
     .field = A_WAVE},
    {.key = "cu_count", .type = HP__V_INT, .in = HP__IN_ALL, .flags = HP__C_RIGHT, .field = A_CUS},
};

static int agents_open(hp__rows *r, int arg)
{
  r->total = r->p->nagents;
  return 0;
}

static int agents_get(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp)
{
  const hp__agent *a = &r->p->agents[id];

  switch (field) {
  case A_TYPE: hp__cell_setstr(c, a->type); break;
  case A_NAME: hp__cell_setstr(c, a->name); break;
  case A_PRODUCT: hp__cell_setstr(c, a->product); break;
  case A_WAVE:
    if (a->wave_size >= 0)
      hp__cell_setint(c, a->wave_size);
    break;
  case A_CUS:
    if (a->cu_count >= 0)
      hp__cell_setint(c, a->cu_count);
    break;
  }
  return 0;
}

const hp__table hp__tab_agents = {
    .key = "agents",
    .title = "Agents",
    .cols = agent_cols,
    .ncols = sizeof(agent_cols) / sizeof(agent_cols[0]),
    .bit = HP__TB_AGENT,
    .open = agents_open,
    .get = agents_get,
};
