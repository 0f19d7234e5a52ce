/*
 * SHA-256 (FIPS 180-4) of a byte string, as lowercase hex (lib/util/base/sha256.c). The caller owns
 * both the input and the 65-byte output.
 */
#ifndef HPRUN_UTIL_SHA256_H
#define HPRUN_UTIL_SHA256_H

#include <stddef.h>

/* Hex SHA-256 of len bytes into out (64 hex digits and a NUL). */
void hp__sha256_hex(const void *data, size_t len, char out[65]);

#endif /* HPRUN_UTIL_SHA256_H */
