/* SPDX-License-Identifier: MIT */
/* common/argspec.h: function tracing's argument and return value specs, uftrace's syntax
 * (LTT_FUNCTIONS_ARGS, LTT_FUNCTIONS_RETVAL; `ltt record -A`, `-R`; doc/recorder.md "Function
 * tracing"), and the printing of a recorded value as uftrace's replay prints it. One parser: libltt
 * reads the variables with it, `ltt record` checks its options with it before the program starts, the
 * reader's tools print func.args and func.retval with ltt_arg_print(). No state, libc only.
 *
 * A list: SPEC[;SPEC...], each SPEC `GLOB@ITEM[,ITEM...]` (GLOB a symbol glob: `*` any characters,
 * `?` one); an ITEM is `argN[/FMT]` (N 1-16: the Nth integer argument, 1-6 in registers, 7 and after on
 * the stack), `fpargN[/f32|/f64]` (N 1-8: xmm0-7) or `retval[/FMT]` (the return value, rax; `/f`:
 * xmm0). FMT: `i`, `u`, `x` with a size 8, 16, 32 or 64 (default 64), `s` (a string, its first
 * LTT_ARG_STR_MAX bytes copied), `c` (a char), `f` (a double; `f32` a float); none: a long printed in
 * decimal, or in hex when its magnitude passes 100000 (uftrace's "auto"). */
#ifndef LTT_COMMON_ARGSPEC_H
#define LTT_COMMON_ARGSPEC_H

#include <stddef.h>
#include <stdint.h>

#define LTT_ARG_SPECS	 32   /* specs of one list */
#define LTT_ARG_ITEMS	 8    /* items of one spec (a func.args event's values at most) */
#define LTT_ARG_FUNC_MAX 128  /* bytes of a spec's glob, NUL included */
#define LTT_ARG_STR_MAX	 96   /* bytes of a string argument copied (NUL not included) */
#define LTT_ARG_LIST_MAX 4096 /* bytes of a list */

/* Formats: the low 4 bits of an item's type byte (doc/format.md "The func facility"). */
enum { LTT_ARG_AUTO, LTT_ARG_I, LTT_ARG_U, LTT_ARG_X, LTT_ARG_S, LTT_ARG_C, LTT_ARG_F, LTT_ARG_NFMT };
/* Where an item is read. */
enum { LTT_ARG_SRC_INT, LTT_ARG_SRC_FP, LTT_ARG_SRC_RET };

/* The type byte of a recorded value: format | log2(size in bytes) << 4 | flags. */
#define LTT_ARG_TYPE(fmt, size_log2) ((uint8_t)((fmt) | (size_log2) << 4))
#define LTT_ARG_T_FMT(t)	     ((t)&15u)
#define LTT_ARG_T_SIZE(t)	     (1u << (((t) >> 4) & 3u)) /* bytes */
#define LTT_ARG_T_CUT		     0x40u		       /* a string: longer than the bytes copied */
#define LTT_ARG_T_BAD		     0x80u		       /* a string: its memory could not be read */

struct ltt_arg_item {
	uint8_t src;	   /* LTT_ARG_SRC_* */
	uint8_t idx;	   /* argN, fpargN: N */
	uint8_t fmt;	   /* LTT_ARG_* */
	uint8_t size_log2; /* 0-3: 1, 2, 4, 8 bytes */
};

struct ltt_arg_spec {
	char func[LTT_ARG_FUNC_MAX];
	unsigned n;
	struct ltt_arg_item it[LTT_ARG_ITEMS];
};

/* Parses a list: retval 0 for -A (arg and fparg items), 1 for -R (retval items). 0 with *n specs in
 * out[0 .. *n) (out may be NULL: checked only), or -EINVAL with why: one line naming the item at fault
 * and the accepted form. */
int ltt_argspec_parse(const char *text, int retval, struct ltt_arg_spec *out, unsigned *n, char *why,
		      size_t wn);

/* Prints a recorded value as uftrace's replay: type its type byte, value its bits (sign or zero
 * extension is done here from the size), str the copied string of an `s` item (NULL otherwise). The
 * number of bytes written (NUL-terminated, cut to n). */
size_t ltt_arg_print(char *out, size_t n, uint8_t type, uint64_t value, const char *str);

#endif
