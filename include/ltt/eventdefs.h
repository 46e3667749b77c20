/* SPDX-License-Identifier: MIT */
/* libltt-eventdefs: the facility model shared by the generator, the recorder and the reader.
 *
 * A facility file (eventdefs/NAME.xml, doc/eventdefs.md) holds one or more <facility> elements. The
 * parser turns it into plain C structs with arrays and counts, every typeref already resolved, every
 * type's encoded size precomputed for the four arch_sizes, so that a decoder walks it without lookups.
 * The model is read-only once parsed: share it freely between threads.
 *
 * Functions return 0 or a negative errno value. Parse errors are also written, as one line
 * `FILE:LINE: message`, into a caller-provided buffer.
 */
#ifndef LTT_EVENTDEFS_H
#define LTT_EVENTDEFS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default)

/* ---- sizes and architectures ----------------------------------------------------------------- */

/* The size keywords of int, uint, float, enum, sequence lengthsize and union typecodesize, as the
 * checksum's "size index": 1, 2, 4, 8, short, medium, long -> 0..6. */
enum ltt_size {
	LTT_SIZE_1 = 0,
	LTT_SIZE_2 = 1,
	LTT_SIZE_4 = 2,
	LTT_SIZE_8 = 3,
	LTT_SIZE_SHORT = 4,
	LTT_SIZE_MEDIUM = 5,
	LTT_SIZE_LONG = 6,
	LTT_SIZE_COUNT = 7,
};

/* The arch_size of info/system.xml (doc/format.md section 2). */
enum ltt_arch_size {
	LTT_ARCH_LP32 = 0,
	LTT_ARCH_ILP32 = 1,
	LTT_ARCH_LP64 = 2,
	LTT_ARCH_ILP64 = 3,
	LTT_ARCH_COUNT = 4,
};

/* Bytes of an integer of size keyword `size` (an enum ltt_size) under `arch`; 0 if either is out of
 * range. Sizes 1/2/4/8 are the same under every arch. */
unsigned ltt_size_bytes(unsigned size, enum ltt_arch_size arch);

/* Bytes of a float of size keyword `size`: 4 for 4 and medium, 8 for 8 and long (every arch), 0 for
 * the sizes a float cannot have (1, 2, short). */
unsigned ltt_float_bytes(unsigned size);

/* The keyword of a size index ("1", "2", "4", "8", "short", "medium", "long"), "?" if out of range. */
const char *ltt_size_name(unsigned size);

/* Parses a size keyword ("1", "2", "4", "8", "short", "medium", "long"): 0 and *size set, or
 * -EINVAL. */
int ltt_size_parse(const char *text, unsigned *size);

/* Parses an arch_size ("LP32", "ILP32", "LP64", "ILP64", exact case): 0 and *arch set, or -EINVAL. */
int ltt_arch_size_parse(const char *text, enum ltt_arch_size *arch);

/* The name of an arch_size ("LP64"), "?" if out of range. */
const char *ltt_arch_size_name(enum ltt_arch_size arch);

/* The arch_size of the machine running this code (from sizeof(int), sizeof(long)). */
enum ltt_arch_size ltt_arch_size_host(void);

/* ---- the type model -------------------------------------------------------------------------- */

enum ltt_type_kind {
	LTT_TYPE_INT = 0,
	LTT_TYPE_UINT,
	LTT_TYPE_FLOAT,
	LTT_TYPE_STRING,
	LTT_TYPE_ENUM,
	LTT_TYPE_ARRAY,
	LTT_TYPE_SEQUENCE,
	LTT_TYPE_STRUCT,
	LTT_TYPE_UNION,
	LTT_TYPE_KIND_COUNT,
};

struct ltt_type_desc;

/* A field of a struct or union. */
struct ltt_field_desc {
	const char *name;
	const char *description;	/* NULL when absent */
	const struct ltt_type_desc *type;	/* a typeref is already resolved to the named type */
	unsigned line;			/* of the <field> element in the source file */
};

/* An enum label; values follow C enum rules (explicit, else previous + 1, from 0). */
struct ltt_enum_label {
	const char *name;
	uint64_t value;
	const char *value_text;		/* the value as written in the XML when explicit, else NULL */
	int explicit_value;		/* nonzero when the XML gave value=... */
};

struct ltt_type_desc {
	enum ltt_type_kind kind;
	/* INT, UINT, FLOAT, ENUM: the size index (enum ltt_size). SEQUENCE: the lengthsize's size
	 * index. UNION: the typecodesize's size index. Otherwise 0. */
	uint8_t size;
	/* Nonzero when the encoded size depends on the value: strings, sequences, and arrays, structs
	 * and unions containing them; a union whose alternatives differ in size is variable too. */
	uint8_t variable;
	const char *format;		/* the format attribute, NULL when absent */
	const char *name;		/* the <type name=...> of a named type, NULL for an inline type */
	const struct ltt_type_desc *element;	/* ARRAY, SEQUENCE: the element type */
	uint32_t array_len;		/* ARRAY: the element count, 1 .. 1,000,000 */
	const struct ltt_field_desc *fields;	/* STRUCT, UNION */
	uint32_t n_fields;
	const struct ltt_enum_label *labels;	/* ENUM */
	uint32_t n_labels;
	/* The encoded size in bytes under each arch_size (index enum ltt_arch_size) when !variable;
	 * when variable, the smallest size a value can take (an empty string is 1 byte, an empty
	 * sequence its length field, a union its code plus its smallest alternative). */
	uint32_t fixed_size[LTT_ARCH_COUNT];
	unsigned line;			/* of the element in the source file */
};

/* A named type of a facility (<type name=...>). */
struct ltt_named_type {
	const char *name;
	const struct ltt_type_desc *type;	/* for an alias (<type name=a><typeref name=b/>), b's type */
	unsigned line;
};

struct ltt_event_desc {
	const char *name;
	const char *description;	/* NULL when absent */
	unsigned index;			/* position in the facility, from 0: id = base_code + index */
	const struct ltt_type_desc *body;	/* a STRUCT, or NULL for an event without payload */
	int persistent;			/* persistent="yes" (doc/format.md section 8) */
	unsigned line;
	/* context="tid" (on the event or its facility): body->fields[0] is `tid`, a uint32 the
	 * generated code fills with the thread id; the XML written for it (ltt_facility_to_xml)
	 * spells the field out and drops the attribute (doc/eventdefs.md "Context") */
	int context_tid;
};

/* A span (<span name=... begin=... end=... key=.../>, doc/eventdefs.md "Spans"): an event pair whose
 * begin and end with equal key values are one interval, on one thread or across threads of the
 * process. Decoding does not depend on it (not part of the checksum). */
struct ltt_span_desc {
	const char *name;
	const char *description;	/* NULL when absent */
	const struct ltt_event_desc *begin, *end;	/* two different events of the facility */
	const char *key;		/* a top-level field of both bodies: int, uint, enum or string */
	unsigned line;
};

struct ltt_facility_desc {
	const char *name;
	const char *description;	/* NULL when absent */
	uint32_t checksum;		/* doc/format.md section 8 */
	const struct ltt_event_desc *events;
	uint32_t n_events;
	const struct ltt_named_type *types;	/* in file order */
	uint32_t n_types;
	const char *file;		/* the file (or buffer name) it was parsed from */
	unsigned line;			/* of the <facility> element */
	const struct ltt_span_desc *spans;	/* in file order; NULL when none */
	uint32_t n_spans;
};

/* Everything one file (or buffer) holds: its facilities in file order. Owns all the memory above. */
struct ltt_eventdefs {
	const struct ltt_facility_desc *facilities;
	uint32_t n_facilities;
	const char *file;
};

/* ---- parsing --------------------------------------------------------------------------------- */

/* Parses the facility file at `path` (quoted XML, or the original dialect: bare attribute values, C
 * comments, several top-level <facility> elements). On success returns 0 and sets *out (free it with
 * ltt_eventdefs_free). On failure returns a negative errno (-EINVAL for a bad description, -ENOENT,
 * -EIO, -ENOMEM, ...), leaves *out NULL and writes `FILE:LINE: message` (or `FILE: message`) into
 * err[errlen] (NUL-terminated, truncated to fit; err may be NULL when errlen is 0). */
int ltt_eventdefs_parse_file(const char *path, struct ltt_eventdefs **out, char *err, size_t errlen);

/* As ltt_eventdefs_parse_file, from `len` bytes at `buf` (need not be NUL-terminated); `name` is the
 * file name used in messages and in ltt_facility_desc.file. */
int ltt_eventdefs_parse_mem(const char *buf, size_t len, const char *name, struct ltt_eventdefs **out,
			    char *err, size_t errlen);

/* Frees what a parse returned (NULL is allowed). */
void ltt_eventdefs_free(struct ltt_eventdefs *defs);

/* The facility named `name` in defs, or NULL. */
const struct ltt_facility_desc *ltt_eventdefs_find(const struct ltt_eventdefs *defs, const char *name);

/* The event named `name` in fac, or NULL. */
const struct ltt_event_desc *ltt_facility_find_event(const struct ltt_facility_desc *fac,
						     const char *name);

/* ---- checksum -------------------------------------------------------------------------------- */

/* The facility's checksum computed from its model (doc/format.md section 8); the parser stores the
 * same value in fac->checksum. */
uint32_t ltt_facility_checksum(const struct ltt_facility_desc *fac);

/* ---- layout ---------------------------------------------------------------------------------- */

/* The encoded size of a value of type t (arch_size `arch`, byte order big_endian != 0 or little)
 * starting at data[0..avail): for fixed-size types t->fixed_size[arch] without reading data; for
 * variable ones, computed by reading the string NULs, sequence lengths and union codes. Returns 0 and
 * sets *size, or -EOVERFLOW when the value runs past avail (a string without NUL, a sequence longer
 * than the data), -ERANGE for a union code out of range, -EINVAL for a bad arch. */
int ltt_type_encoded_size(const struct ltt_type_desc *t, enum ltt_arch_size arch, int big_endian,
			  const void *data, size_t avail, size_t *size);

/* Reads an unsigned integer of `bytes` (1, 2, 4 or 8) at p in the given byte order. */
uint64_t ltt_read_uint(const void *p, unsigned bytes, int big_endian);

/* ---- writing a facility back ----------------------------------------------------------------- */

/* The facility as canonical XML text (quoted attributes, two-space indentation, descriptions kept,
 * named types as <type> elements after the events, then the <span>s, no comments): one <facility>
 * element ending with a newline. Parsing it gives the same model and the same checksum. Returns 0 and a malloc'd string
 * in *xml (the caller frees it), or -ENOMEM. */
int ltt_facility_to_xml(const struct ltt_facility_desc *fac, char **xml);

/* The name of a type kind ("int", "uint", "float", "string", "enum", "array", "sequence", "struct",
 * "union"), "?" if out of range. */
const char *ltt_type_kind_name(enum ltt_type_kind kind);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
#endif
