/* SPDX-License-Identifier: MIT */
/* Compiled plans of event bodies for `ltt dump`'s text and JSON outputs (fmt_text.c, json_fields.c):
 * for an event type whose body is a struct of scalars (integers of any size and sign, enums, strings,
 * floats), the literal pieces ("{ name = ", ",\"name\":", enum labels already escaped) are built once,
 * so an event is a few memcpys of literals and integer formatting straight from the payload, written
 * with a local pointer into room reserved once. Bodies of other shapes (arrays, sequences, nested
 * structs, unions) have no plan: their formats walk them with ltt_value. The output is exactly what
 * the walk writes (tests/e2e/dump_kinds.sh, reader_types.sh). */
#ifndef LTT_TOOLKIT_DUMP_PLAN_H
#define LTT_TOOLKIT_DUMP_PLAN_H

#include "toolkit/dump_format.h"

struct thread_names;

enum dump_plan_style {
	DUMP_PLAN_TEXT,		/* { a = 1, s = "C \x01 string", e = LABEL } */
	DUMP_PLAN_JSON,		/* {"a":1,"s":"JSON string","e":"LABEL"}, NaN and infinities as null */
	DUMP_PLAN_JSON_QUOTED,	/* the same JSON as a JSON string literal's contents ('"' and '\\'
				 * escaped once more; the caller writes the enclosing quotes) */
	DUMP_PLAN_JSON_CSV,	/* the same JSON as a quoted CSV field's contents ('"' doubled) */
};

/* How one field is read and written; the last four: the common integers in the host's byte order. */
enum { PLAN_UINT, PLAN_INT, PLAN_ENUM, PLAN_STRING, PLAN_FLOAT, PLAN_U32, PLAN_U64, PLAN_I32, PLAN_I64 };

struct dump_plan_op {
	uint8_t kind;			/* PLAN_* */
	uint8_t bytes;			/* integers and enums: 1, 2, 4 or 8; floats: 4 or 8 */
	uint8_t brk;			/* the value is written by a function (string, float, tid name):
					 * room is reserved again after it */
	uint8_t tid;			/* text: a uint field named tid, shown with its thread's name */
	uint8_t sym;			/* text: a func event's addr, shown with its function (name+0xOFF) */
	uint32_t klen;
	uint32_t room;			/* bytes this field and the next up to the next brk field's key
					 * (or the end, closing and DUMP_PLAN_SLACK included) take at most,
					 * DUMP_PAD more for dump_put_padded */
	const char *key;		/* "{ name = " / ", name = " (text), "{\"name\":" / ",\"name\":" */
	const struct ltt_type_desc *t;
	/* enums: the literal of each label (index as in t->labels), the label index + 1 of each value
	 * below nlut (0: no label), and whether larger values must be searched */
	const char **lab;
	uint32_t *lab_len;
	uint32_t *lut;
	uint32_t nlut;
	uint32_t scan;
};

/* Room left after what dump_plan_put wrote, for the caller's line end. */
#define DUMP_PLAN_SLACK (DUMP_PAD + 8)

struct dump_plan {
	unsigned style;
	unsigned n;
	uint32_t close_len;
	const char *close;		/* " }", "}", or "{}" for a struct without fields */
	uint32_t room;			/* what dump_plan_put needs reserved before it is called */
	uint32_t tail;			/* close_len + DUMP_PLAN_SLACK */
	char *mem;			/* the literals (one allocation) */
	struct dump_plan_op ops[];
};

/* The plan of ev's type in style, or *out = NULL when the body has no flat plan (not a struct of
 * scalars, or too wide: the caller walks it). tid: mark uint fields named tid (text, outside core).
 * Returns 0 or -ENOMEM. */
int dump_plan_make(const struct ltt_event *ev, enum dump_plan_style style, int tid, struct dump_plan **out);
void dump_plan_free(struct dump_plan *p);

/* Writes the body of ev at w (p->room bytes reserved there by the caller, with dump_out_reserve), and
 * returns the end, not committed, with DUMP_PLAN_SLACK bytes of room after it. Strings, floats and
 * thread names are written through o between (committing first). tn: thread names for tid fields, or
 * NULL. *err: set to -EFBIG (a string of a JSON_QUOTED or JSON_CSV plan longer than DUMP_OUT_SIZE as
 * JSON) or -ENOMEM; the output is then incomplete. */
char *dump_plan_put(struct dump_out *o, char *w, const struct dump_plan *p, const struct ltt_event *ev,
		    const struct thread_names *tn, int *err);

/* An integer of 1, 2, 4 or 8 bytes at q in byte order be. */
static inline uint64_t dump_load(const unsigned char *q, unsigned bytes, int be)
{
	int swap = (be != 0) != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	uint16_t h;
	uint32_t s;
	uint64_t d;

	switch (bytes) {
	case 1:
		return *q;
	case 2:
		memcpy(&h, q, 2);
		return swap ? __builtin_bswap16(h) : h;
	case 4:
		memcpy(&s, q, 4);
		return swap ? __builtin_bswap32(s) : s;
	default:
		memcpy(&d, q, 8);
		return swap ? __builtin_bswap64(d) : d;
	}
}

#endif
