/* SPDX-License-Identifier: MIT */
/* Figures for people: durations in the unit that suits them, the columns a UTF-8 string takes. */
#ifndef LTT_TOOLKIT_TEXT_UNITS_H
#define LTT_TOOLKIT_TEXT_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* Formats a duration for people, in the largest unit that keeps it at 1 or more: "20ns" below a
 * microsecond, else 2 decimals rounded half up in µs, ms or s ("1.50µs", "999.99ms", "12.35s"; a value
 * that rounds to 1000 of a unit moves to the next one: 999999 ns is "1.00ms"). No space between the
 * number and the unit, so that the value is one word; "µs" is UTF-8 (2 bytes, 1 column). Returns buf;
 * 24 bytes always suffice. */
char *reader_format_duration(char *buf, size_t size, uint64_t ns);

/* Columns the UTF-8 string s takes on a terminal (its bytes but the continuation bytes). */
size_t reader_text_columns(const char *s);

#endif
