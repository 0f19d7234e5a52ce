/*
 * Tests for lib/util/base/sha256.c against digests it did not compute: the FIPS 180-4 examples that
 * NIST publishes (the empty string, "abc", the 448-bit two-block message, one million 'a'), and
 * messages around the padding boundaries, whose digests were computed with coreutils' sha256sum.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "util/base/sha256.h"

static void check_digest(const void *data, size_t len, const char *want)
{
  char out[65];

  memset(out, 'X', sizeof(out));
  hp__sha256_hex(data, len, out);
  assert_int_equal(out[64], '\0');
  assert_string_equal(out, want);
}

static void test_nist_short(void **state)
{
  (void)state;
  check_digest("", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  check_digest("abc", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  /* 56 bytes: the length field no longer fits after the 0x80 byte, so padding takes a block. */
  check_digest("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56,
               "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  /* The 896-bit message of the SHA-384/512 examples, 112 bytes (checked with sha256sum). */
  check_digest("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
               "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
               112, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

static void test_nist_million_a(void **state)
{
  char *a = malloc(1000000);

  (void)state;
  assert_non_null(a);
  memset(a, 'a', 1000000);
  check_digest(a, 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  free(a);
}

/* Messages of n bytes "abcdefghijklmnopqrstuvwxyzabc..." around every place where the padding
 * changes shape: the 0x80 byte and the 8-byte length fit in the last block up to 55 bytes of it;
 * from 56 to 63 they need one more block; at 64 the message fills its blocks exactly. Digests from
 * `printf %s abcd... | sha256sum`. */
static void test_padding_boundaries(void **state)
{
  static const struct {
    size_t n;
    const char *hex;
  } cases[] = {
      {1, "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"},
      {55, "595615dbe4f0f407ae397d08b4c2cb870cb9b0e11937416f950c5160acf9c005"},
      {56, "784f623b787495078e93ff28a25b581df0584055a7e71d8cd90c454716b92f51"},
      {57, "808f0738aa4401bdee842e5a15a7baad5809f976d8eb6f9bd2683cebd2e8d671"},
      {63, "5ca3e1ef5207490eac01a795e5cc94d59582a5118bf9534665c8668d87aa647c"},
      {64, "2fcd5a0d60e4c941381fcc4e00a4bf8be422c3ddfafb93c809e8d1e2bfffae8e"},
      {65, "1b3cd1877ab2f2f19f7be001722554f336cb799df0329de0bb4c118dc6abc06d"},
      {111, "11166d480c33d5cf2023d33251a2e024a4e9436cb3f061d99a1908fd1111c829"},
      {112, "43b9d01284b7170bc99bce5d032307646c76361e98da0f82360cc81884893852"},
      {119, "faef67da856d6fd9c8d12f9ed0a4fefd3cf0ce085ab43e2907418d457e3c354b"},
      {120, "c9512b08619c19fbb503c7da6b46ef20301e5f7a7a5f43989182398536f5c5c8"},
      {127, "1b9907986f18ddc2b37e18be502d82d69d6e18bb9dff9e16f2aceea7d88cb933"},
      {128, "6c05be2c4268843ae47e68e611277ce62c02153f2f4d2e1e2a1a4b44f766cf74"},
      {129, "cd6bba8374324cbcc0c296b94f35299c0b9820393116358ac3afaf091a4955a5"},
  };
  char msg[129];
  size_t i, k;

  (void)state;
  for (i = 0; i < sizeof(msg); i++)
    msg[i] = (char)('a' + i % 26);
  for (k = 0; k < sizeof(cases) / sizeof(cases[0]); k++)
    check_digest(msg, cases[k].n, cases[k].hex);
}

/* Only `len` bytes are read: a longer buffer with other bytes after them gives the same digest. */
static void test_reads_only_len(void **state)
{
  (void)state;
  check_digest("abcXYZ", 3, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  check_digest("\0abc", 0, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nist_short),
      cmocka_unit_test(test_nist_million_a),
      cmocka_unit_test(test_padding_boundaries),
      cmocka_unit_test(test_reads_only_len),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
