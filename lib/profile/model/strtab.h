/*
 * String interning for the profile tables (lib/profile/model/strtab.c): byte strings to dense ids
 * 0..n-1 in order of first appearance, so every per-name accumulator can be a plain array indexed
 * by id. Also the hash the tables and the recent-key window share, and the zero-filling array
 * growth they all use.
 *
 * A hp__strtab owns copies of the strings it was given; the caller keeps its own strings. A failed
 * call leaves the table as it was. hp__strtab_free releases everything and leaves an empty table.
 */
#ifndef HPRUN_PROFILE_STRTAB_H
#define HPRUN_PROFILE_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct hp__strtab_slot {
  uint32_t id1; /* id + 1; 0 = empty */
  uint32_t h32; /* low bits of the hash, to skip most string compares */
} hp__strtab_slot;

typedef struct hp__strtab {
  hp__strtab_slot *slots;
  size_t nslots; /* a power of two, at least twice n */
  char **s;      /* owned, NUL-terminated copies */
  size_t *len;
  size_t n, cap;
} hp__strtab;

/* A fast 64-bit hash of n bytes (8 bytes per step, multiply-xorshift mixing). */
uint64_t hp__hash(const void *p, size_t n);
/* The hash's final mixing step on its own, to fold a number into a hash. */
uint64_t hp__hash_mix(uint64_t h);
/* Finds s[0..n) or adds a copy. *id is its id; returns 1 when it was added, 0 when it was there,
 * HP_ENOMEM (the table is unchanged). `h` must be hp__hash(s, n). */
int hp__strtab_intern(hp__strtab *t, const char *s, size_t n, uint64_t h, uint32_t *id);
/* Returns the id of s[0..n), or -1. */
long hp__strtab_find(const hp__strtab *t, const char *s, size_t n, uint64_t h);
void hp__strtab_free(hp__strtab *t);

/* Grows a zero-filled array of `elem`-byte items so that index `need - 1` exists. */
int hp__grow(void **p, size_t *cap, size_t need, size_t elem);

#endif /* HPRUN_PROFILE_STRTAB_H */
