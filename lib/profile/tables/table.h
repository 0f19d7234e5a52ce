/*
 * The profile summary's tables, each described ONCE, and what the four writers need to render
 * any description (docs/internals/tables.md). A description (hp__table) holds a table's JSON key,
 * its title, its columns (hp__col: header in each format, value type, unit change, text format,
 * alignment) and its row source (open: which rows, in which order; get: one cell of one row).
 * The writers (out_text.c for text and Markdown, out_json.c, out_csv.c) hold no per-table code:
 * what differs between formats is a property of a column (which formats show it, the text cut
 * of names) or of the writer (Markdown escaping, CSV quoting).
 *
 * The descriptions live in tables.c (the list, files, leak checks, agents), tables_time.c (time
 * tables and categories), tables_kernel.c (kernel stacks, PMC), tables_ncu.c (ncu) and
 * san_table.c (compute-sanitizer); what they all use (rows, cells, shared row orders) is in
 * cells.c, which calls none of them.
 *
 * Ownership: descriptions are static. hp__rows owns its order array and `own` until
 * hp__rows_free; on failure hp__rows_open leaves nothing to free (hp__rows_free is still safe).
 * A cell points into the profile or into the caller's scratch buffer `tmp`: it is valid until the
 * next get with that buffer and the profile stays unchanged.
 */
#ifndef HPRUN_PROFILE_TABLE_H
#define HPRUN_PROFILE_TABLE_H

#include "profile/model/profile.h"
#include "util/base/buf.h"

#include <stddef.h>

/* The value type of a column. */
enum {
  HP__V_STR,    /* text; JSON string */
  HP__V_INT,    /* whole number */
  HP__V_NUM,    /* double, divided by the column's `div` */
  HP__V_BOOL,   /* JSON true/false */
  HP__V_VALS,   /* distinct values (hp__vals): a JSON array, joined text in text and CSV */
  HP__V_TABLES, /* HP__TB_* bits: a JSON array of the keys of the tables with those bits */
  HP__V_OBJ     /* JSON only: an object of the HP__C_MEMBER columns after it, or null */
};

/* The formats that show a column. */
enum {
  HP__IN_TEXT = 1, /* text and Markdown */
  HP__IN_JSON = 2,
  HP__IN_CSV = 4,
  HP__IN_ALL = 7
};

/* Column properties. */
enum {
  HP__C_RIGHT = 1,   /* text and Markdown: right-aligned */
  HP__C_NAME = 2,    /* text: cut to the name width with "…", control characters shown as '?' */
  HP__C_SPARSE = 4,  /* text: left out when no shown row has a value (min/max) */
  HP__C_KEY = 8,     /* identifies the row: repeated in front of a child's own CSV table */
  HP__C_MEMBER = 16, /* JSON: a member of the HP__V_OBJ column before it; CSV: a plain column */
  HP__C_BYTES = 32,  /* text: a byte count in powers of 1024 ("170.06 MB") */
  HP__C_KNAME = 64,  /* text and Markdown: a kernel name, shown short and unique (kname.c) */
  HP__C_AT = 128,    /* the value is a member of the row's struct, at byte `field` (no get) */
  HP__C_OPT = 256    /* with HP__C_AT, a whole number: a negative one is missing (unknown) */
};

/* The `field` of an HP__C_AT column: member M of the row struct T. */
#define HP__AT(T, M) ((int)offsetof(T, M))

/* A column. The lists write them in this order, one line each, as a small table. */
typedef struct hp__col {
  const char *key;     /* JSON key */
  const char *csv;     /* CSV header; NULL: the key */
  const char *head;    /* text and Markdown header; NULL: the CSV header */
  int type;            /* HP__V_* */
  unsigned in;         /* HP__IN_* */
  unsigned flags;      /* HP__C_* */
  int field;           /* what the table's get fetches; with HP__C_AT, the member's offset */
  double div;          /* unit change: the value is divided by this (ns to ms: 1e6); 0: none */
  const char *tfmt;    /* text: printf format of an HP__V_NUM ("%.3f") */
  const char *missing; /* text of a missing value; NULL: "n/a" for numbers, "" for strings */
} hp__col;

/* One cell. A missing value (ok == 0) is null in JSON, an empty CSV field, `missing` in text. */
typedef struct hp__cell {
  int ok;
  const char *s; /* HP__V_STR: s[0..len) */
  size_t len;
  long long i;       /* HP__V_INT, HP__V_BOOL, HP__V_TABLES */
  double d;          /* HP__V_NUM, before `div` */
  const hp__vals *v; /* HP__V_VALS */
} hp__cell;

/* The rows of one table, in order. */
typedef struct hp__rows {
  const hp_profile *p;
  const void *src; /* the table's data (an hp__ttable, the categories, a parent kernel) */
  void *own;       /* freed with the rows */
  size_t *id;      /* row order as ids for get; NULL: 0..total-1 */
  size_t total;    /* rows the table has */
  size_t n;        /* rows shown: total, or fewer under --top */
  size_t parent;   /* a child table's parent row id */
  double sum;      /* time tables: the total for percentages */
  /* The writer's options (may be NULL): the ncu metrics asked for. */
  const hp_profile_opts *o;
} hp__rows;

/* Table properties. */
enum {
  HP__TF_TOP = 1,     /* --top cuts the rows */
  HP__TF_COUNT = 2,   /* JSON "counts" gives its row count */
  HP__TF_SECTIONS = 4 /* text: one section per row (its fields, then its child table) */
};

/* The `cols` and `ncols` of a table whose columns are the array A. */
#define HP__COLS(A) .cols = (A), .ncols = sizeof(A) / sizeof((A)[0])

typedef struct hp__table hp__table;
struct hp__table {
  const char *key;   /* JSON key; CSV table name */
  const char *title; /* text and Markdown heading */
  /* When set, the heading for this profile instead (what its rows hold decides). */
  const char *(*title_of)(const hp_profile *p);
  const hp__col *cols;
  size_t ncols;
  unsigned flags; /* HP__TF_* */
  unsigned bit;   /* the HP__TB_* bit of files[].tables; 0: none */
  int arg;        /* passed to open (the time tables: HP__T_*) */
  /* HP__C_AT columns read row id of r->src, an array of structs of this size: a char * for
   * HP__V_STR, long long for HP__V_INT, double for HP__V_NUM, int for HP__V_BOOL, hp__vals for
   * HP__V_VALS, unsigned for HP__V_TABLES. */
  size_t size;
  /* Fills r->src, r->id, r->total (and r->own, r->sum); r->p and r->parent are set. */
  int (*open)(hp__rows *r, int arg);
  /* One cell of row `id` (c is zeroed); `tmp` holds composed text. 0 or HP_ENOMEM. */
  int (*get)(const hp__rows *r, size_t id, int field, hp__cell *c, hp__buf *tmp);
  /* Rows nested in each row: a JSON array under child->key after the row's columns; CSV as
   * below; text shows them only in sections. */
  const hp__table *child;
  /* A child's own CSV table name (the parent's HP__C_KEY columns in front); NULL: the child's
   * rows are flattened into the parent's CSV table, one line per child row. */
  const char *csv_table;
  /* Printed after the table in text and Markdown; JSON wraps the rows as
   * {"note": ..., "entries": [...], "dropped": dropped(p)}. */
  const char *note;
  long long (*dropped)(const hp_profile *p);
  /* Sections: the noun of "(N more NOUN; ...)", and the heading of row `id` (`name` is the row's
   * HP__C_NAME cell as the format shows it). NULL heading: the title, numbered i/n. */
  const char *noun;
  int (*heading)(const hp__rows *r, size_t id, const char *name, hp__buf *out);
};

/* The tables in document order, the files table apart: each document puts the list of files
 * where it reads best (JSON and CSV first, text and Markdown last). */
extern const hp__table *const hp__tables[];
extern const size_t hp__ntables;
extern const hp__table hp__files_table;

/* The descriptions (tables*.c). */
extern const hp__table hp__tab_api, hp__tab_hsa, hp__tab_copies, hp__tab_kernels,
    hp__tab_categories, hp__tab_stacks, hp__tab_pmc, hp__tab_leaks, hp__tab_ncu, hp__tab_agents,
    hp__tab_ncu_device, hp__tab_ncu_launch, hp__tab_cpu_ops, hp__tab_timeline;
/* compute-sanitizer (san_table.c). */
extern const hp__table hp__tab_san_runs, hp__tab_san_kinds, hp__tab_san_kernels;

/* Opens the rows of `t` (of parent row `parent` for a child); --top from `o` (may be NULL)
 * applies to tables with HP__TF_TOP. 0 or HP_ENOMEM. */
int hp__rows_open(hp__rows *r, const hp__table *t, const hp_profile *p, const hp_profile_opts *o,
                  size_t parent);
void hp__rows_free(hp__rows *r);
/* The id of the i-th row. */
size_t hp__rows_id(const hp__rows *r, size_t i);
/* Fetches one cell (zeroed first). 0 or HP_ENOMEM. */
int hp__cell_get(const hp__table *t, const hp__rows *r, size_t id, const hp__col *col, hp__cell *c,
                 hp__buf *tmp);
/* A number cell's value after the column's unit change. */
double hp__cell_value(const hp__col *col, const hp__cell *c);
/* The CSV header, and the text header, of a column. */
const char *hp__col_csv(const hp__col *col);
const char *hp__col_head(const hp__col *col);
/* The table whose files[].tables bit is `bit`, or NULL. */
const hp__table *hp__table_by_bit(unsigned bit);

/* Cell setters for the getters: a string (NULL: missing), a whole number, a number (NaN:
 * missing). */
void hp__cell_setstr(hp__cell *c, const char *s);
void hp__cell_setint(hp__cell *c, long long v);
void hp__cell_setnum(hp__cell *c, double v);

/* Distinct values sorted (numbers by value, other text bytewise) into s[0..v->n). */
void hp__vals_sorted(const hp__vals *v, const char **s);
/* Distinct values joined like the article's unique_values: sorted, comma-separated, "n/a" when
 * there are none. b is reset first. 0 or HP_ENOMEM. */
int hp__vals_join(const hp__vals *v, hp__buf *b);

/* Row orders the per-kernel tables share (cells.c): ids 0..n-1 by the long long count at
 * byte `off` of each `size`-byte item of `base`, descending, ties by id; and the ids below
 * min(ncap, nnames) whose cnt is not zero. 0 or HP_ENOMEM. */
int hp__rows_sort_by_count(hp__rows *r, size_t n, const void *base, size_t size, size_t off);
int hp__rows_nonzero_ids(hp__rows *r, const long long *cnt, size_t ncap, size_t nnames);

/* The short form of a kernel name (lib/profile/tables/kname.c): malloc'd, NULL when out of memory.
 */
char *hp__kernel_short(const char *name);
/* Makes names[0..n) distinct by adding " #2", " #3" to repeats, in order (each a malloc'd string
 * that may be replaced). 0 or HP_ENOMEM. */
int hp__names_unique(char **names, size_t n);

/* The documents. `md` selects Markdown. Each returns 0 or a negative HP_E* code. */
int hp__write_text(const hp_profile *p, FILE *fp, int md, const hp_profile_opts *o);
int hp__write_csv(const hp_profile *p, FILE *fp, const hp_profile_opts *o);

#endif /* HPRUN_PROFILE_TABLE_H */
