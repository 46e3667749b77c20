/* SPDX-License-Identifier: MIT */
/* The facility checksum of the original implementation (doc/format.md section 8). */
#include <stdio.h>
#include <string.h>

#include "model.h"

struct crc {
	uint32_t table[256];
	uint32_t value;
	int started;
};

static void crc_init(struct crc *c)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t v = i;

		for (int k = 0; k < 8; k++)
			v = v & 1 ? 0xEDB88320u ^ (v >> 1) : v >> 1;
		c->table[i] = v;
	}
	c->started = 0;
}

/* The first string gets a complete CRC-32 (initial 0xFFFFFFFF, final XOR); later ones continue from
 * the current value with the update step alone. */
static void crc_str(struct crc *c, const char *s)
{
	uint32_t v = c->started ? c->value : 0xFFFFFFFFu;

	for (; *s; s++)
		v = c->table[(v ^ (unsigned char)*s) & 0xff] ^ (v >> 8);
	c->value = c->started ? v : v ^ 0xFFFFFFFFu;
	c->started = 1;
}

static const char *const int_names[LTT_SIZE_COUNT] = {
	"int8_t", "int16_t", "int32_t", "int64_t", "short int", "int", "long int",
};
static const char *const uint_names[LTT_SIZE_COUNT] = {
	"uint8_t", "uint16_t", "uint32_t", "uint64_t", "unsigned short int", "unsigned int",
	"unsigned long int",
};
static const char *const float_names[LTT_SIZE_COUNT] = {
	"undef", "undef", "float", "double", "undef", "float", "double",
};

/* T(type): its canonical string, its format, its children. Recursion depth is bounded by
 * LTT_MAX_DEPTH and the work by LTT_MAX_NODES (checked when the facility was resolved). */
static void crc_type(struct crc *c, const struct ltt_type_desc *t)
{
	char buf[64];
	unsigned size = t->size < LTT_SIZE_COUNT ? t->size : 0;

	switch (t->kind) {
	case LTT_TYPE_INT:
		crc_str(c, int_names[size]);
		break;
	case LTT_TYPE_UINT:
		crc_str(c, uint_names[size]);
		break;
	case LTT_TYPE_FLOAT:
		crc_str(c, float_names[size]);
		break;
	case LTT_TYPE_STRING:
		crc_str(c, "string");
		break;
	case LTT_TYPE_ENUM:
		snprintf(buf, sizeof(buf), "enum %s", uint_names[size]);
		crc_str(c, buf);
		break;
	case LTT_TYPE_ARRAY:
		snprintf(buf, sizeof(buf), "array %u", t->array_len);
		crc_str(c, buf);
		break;
	case LTT_TYPE_SEQUENCE:
		snprintf(buf, sizeof(buf), "sequence %u", size);
		crc_str(c, buf);
		break;
	case LTT_TYPE_STRUCT:
		crc_str(c, "struct");
		break;
	case LTT_TYPE_UNION:
		crc_str(c, "union");
		break;
	default:
		return;
	}
	if (t->format)
		crc_str(c, t->format);
	switch (t->kind) {
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		crc_type(c, t->element);
		break;
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		for (uint32_t i = 0; i < t->n_fields; i++) {
			crc_str(c, t->fields[i].name);
			crc_type(c, t->fields[i].type);
		}
		break;
	case LTT_TYPE_ENUM:
		for (uint32_t i = 0; i < t->n_labels; i++) {
			const struct ltt_enum_label *l = &t->labels[i];

			crc_str(c, l->name);
			if (l->explicit_value) {
				crc_str(c, "=");
				crc_str(c, l->value_text);
			}
		}
		break;
	default:
		break;
	}
}

uint32_t ltt_facility_checksum(const struct ltt_facility_desc *fac)
{
	struct crc c;

	crc_init(&c);
	crc_str(&c, fac->name);
	for (uint32_t i = 0; i < fac->n_events; i++) {
		crc_str(&c, fac->events[i].name);
		if (fac->events[i].body)
			crc_type(&c, fac->events[i].body);
	}
	return c.value;
}
