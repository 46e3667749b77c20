/* SPDX-License-Identifier: MIT */
/* Numbers in text (common/parse.c): the whole string is the number (no sign, no space, nothing
 * after it). Each returns 0, -EINVAL when s is not such a number (NULL or empty included), or -ERANGE
 * when it is one but does not fit (or lies outside [lo, hi]); *out is set only on success. */
#ifndef LTT_COMMON_PARSE_H
#define LTT_COMMON_PARSE_H

#include <stdint.h>

/* Decimal digits. */
int ltt_parse_u64(const char *s, uint64_t *out);
/* Decimal digits, a value in [lo, hi]. */
int ltt_parse_u64_in(const char *s, uint64_t lo, uint64_t hi, uint64_t *out);
/* An unsigned C integer literal: decimal, 0x/0X hexadecimal or 0 octal (no suffix). */
int ltt_parse_c_u64(const char *s, uint64_t *out);
/* A size: decimal digits, then optionally one binary multiple k, m, g or t (either case: 2^10, 2^20,
 * 2^30, 2^40), which may be followed by "B" or "iB" ("4096", "64k", "10MiB", "1GB"). */
int ltt_parse_size(const char *s, uint64_t *out);

#endif
