/*
 * The generator of the unit tests' random inputs: Marsaglia's xorshift64, one state per test
 * program. A test file defines TEST_XORSHIFT_SEED before including this header, so that each keeps
 * the sequence its generated cases were checked against.
 */
#ifndef HPRUN_TEST_XORSHIFT_H
#define HPRUN_TEST_XORSHIFT_H

#include <stdint.h>

#ifndef TEST_XORSHIFT_SEED
#error "define TEST_XORSHIFT_SEED before including test_xorshift.h"
#endif

static uint64_t test_xorshift_state = TEST_XORSHIFT_SEED;

/* A number in [0, n). */
static unsigned rnd(unsigned n)
{
  test_xorshift_state ^= test_xorshift_state << 13;
  test_xorshift_state ^= test_xorshift_state >> 7;
  test_xorshift_state ^= test_xorshift_state << 17;
  return (unsigned)(test_xorshift_state % n);
}

#endif /* HPRUN_TEST_XORSHIFT_H */
