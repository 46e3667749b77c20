/* SPDX-License-Identifier: MIT */
/* Size keywords and arch_sizes (doc/format.md section 2). */
#include <errno.h>
#include <string.h>

#include <ltt/eventdefs.h>

static const char *const size_names[LTT_SIZE_COUNT] = {
	"1", "2", "4", "8", "short", "medium", "long",
};

/* bytes[size index][arch]: the table of doc/format.md section 2. */
static const uint8_t size_bytes[LTT_SIZE_COUNT][LTT_ARCH_COUNT] = {
	/*            LP32 ILP32 LP64 ILP64 */
	[LTT_SIZE_1]      = { 1, 1, 1, 1 },
	[LTT_SIZE_2]      = { 2, 2, 2, 2 },
	[LTT_SIZE_4]      = { 4, 4, 4, 4 },
	[LTT_SIZE_8]      = { 8, 8, 8, 8 },
	[LTT_SIZE_SHORT]  = { 2, 2, 2, 2 },
	[LTT_SIZE_MEDIUM] = { 2, 4, 4, 8 },
	[LTT_SIZE_LONG]   = { 4, 4, 8, 8 },
};

static const char *const arch_names[LTT_ARCH_COUNT] = { "LP32", "ILP32", "LP64", "ILP64" };

unsigned ltt_size_bytes(unsigned size, enum ltt_arch_size arch)
{
	if (size >= LTT_SIZE_COUNT || (unsigned)arch >= LTT_ARCH_COUNT)
		return 0;
	return size_bytes[size][arch];
}

unsigned ltt_float_bytes(unsigned size)
{
	switch (size) {
	case LTT_SIZE_4:
	case LTT_SIZE_MEDIUM:
		return 4;
	case LTT_SIZE_8:
	case LTT_SIZE_LONG:
		return 8;
	default:
		return 0;
	}
}

const char *ltt_size_name(unsigned size)
{
	return size < LTT_SIZE_COUNT ? size_names[size] : "?";
}

int ltt_size_parse(const char *text, unsigned *size)
{
	for (unsigned i = 0; i < LTT_SIZE_COUNT; i++) {
		if (!strcmp(text, size_names[i])) {
			*size = i;
			return 0;
		}
	}
	return -EINVAL;
}

int ltt_arch_size_parse(const char *text, enum ltt_arch_size *arch)
{
	for (unsigned i = 0; i < LTT_ARCH_COUNT; i++) {
		if (!strcmp(text, arch_names[i])) {
			*arch = (enum ltt_arch_size)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *ltt_arch_size_name(enum ltt_arch_size arch)
{
	return (unsigned)arch < LTT_ARCH_COUNT ? arch_names[arch] : "?";
}

enum ltt_arch_size ltt_arch_size_host(void)
{
	if (sizeof(long) == 8)
		return sizeof(int) == 8 ? LTT_ARCH_ILP64 : LTT_ARCH_LP64;
	return sizeof(int) == 2 ? LTT_ARCH_LP32 : LTT_ARCH_ILP32;
}

const char *ltt_type_kind_name(enum ltt_type_kind kind)
{
	static const char *const names[LTT_TYPE_KIND_COUNT] = {
		"int", "uint", "float", "string", "enum", "array", "sequence", "struct", "union",
	};

	return (unsigned)kind < LTT_TYPE_KIND_COUNT ? names[kind] : "?";
}
