/* SPDX-License-Identifier: MIT */
/* Typed access to event payloads: struct ltt_value views over the encoded bytes (doc/format.md
 * section 8). The iterator has already sized and bounds-checked each event, so nothing here can read
 * past the event; nothing allocates. */
#include <errno.h>

#include "reader_internal.h"

static inline unsigned int_bytes(const struct ltt_value *v, unsigned size)
{
	return ltt_size_bytes(size, (enum ltt_arch_size)v->arch);
}

static uint64_t read_uint(const unsigned char *p, unsigned bytes, int be)
{
	switch (bytes) {
	case 1: return *p;
	case 2: return rd_u16(p, be);
	case 4: return rd_u32(p, be);
	case 8: return rd_u64(p, be);
	default: return 0;
	}
}

/* Encoded size of a value of type t at p, given that it ends at or before end. */
static uint32_t value_size(const struct ltt_type_desc *t, const struct ltt_value *ctx, const unsigned char *p,
			   const unsigned char *end)
{
	size_t sz = 0;

	if (!t->variable)
		return t->fixed_size[ctx->arch];
	if (ltt_type_encoded_size(t, (enum ltt_arch_size)ctx->arch, ctx->big_endian, p, (size_t)(end - p), &sz))
		return (uint32_t)(end - p);	/* cannot happen for a sized event: stay in bounds */
	return (uint32_t)sz;
}

int ltt_event_body(const struct ltt_event *ev, struct ltt_value *out)
{
	if (!ev->type || !ev->type->body)
		return -ENOENT;
	out->type = ev->type->body;
	out->data = ev->payload;
	out->size = ev->size;
	out->index = 0;
	out->name = NULL;
	out->big_endian = ev->big_endian;
	out->arch = ev->arch;
	return 0;
}

uint64_t ltt_value_nchildren(const struct ltt_value *v)
{
	switch (v->type->kind) {
	case LTT_TYPE_STRUCT:
		return v->type->n_fields;
	case LTT_TYPE_ARRAY:
		return v->type->array_len;
	case LTT_TYPE_SEQUENCE:
		return read_uint(v->data, int_bytes(v, v->type->size), v->big_endian);
	case LTT_TYPE_UNION:
		return 1;
	default:
		return 0;
	}
}

static void set_child(const struct ltt_value *v, struct ltt_value *c, const struct ltt_type_desc *t,
		      const char *name, const unsigned char *p, uint32_t index)
{
	c->type = t;
	c->data = p;
	c->index = index;
	c->name = name;
	c->big_endian = v->big_endian;
	c->arch = v->arch;
	c->size = value_size(t, v, p, v->data + v->size);
}

int ltt_value_first(const struct ltt_value *v, struct ltt_value *c)
{
	const struct ltt_type_desc *t = v->type;
	unsigned lb;
	uint64_t code;

	switch (t->kind) {
	case LTT_TYPE_STRUCT:
		if (!t->n_fields)
			return -ENOENT;
		set_child(v, c, t->fields[0].type, t->fields[0].name, v->data, 0);
		return 0;
	case LTT_TYPE_ARRAY:
		if (!t->array_len)
			return -ENOENT;
		set_child(v, c, t->element, NULL, v->data, 0);
		return 0;
	case LTT_TYPE_SEQUENCE:
		lb = int_bytes(v, t->size);
		if (!read_uint(v->data, lb, v->big_endian))
			return -ENOENT;
		set_child(v, c, t->element, NULL, v->data + lb, 0);
		return 0;
	case LTT_TYPE_UNION:
		lb = int_bytes(v, t->size);
		code = read_uint(v->data, lb, v->big_endian);
		if (code >= t->n_fields)
			return -ENOENT;
		set_child(v, c, t->fields[code].type, t->fields[code].name, v->data + lb, (uint32_t)code);
		return 0;
	default:
		return -ENOENT;
	}
}

int ltt_value_next(const struct ltt_value *v, struct ltt_value *c)
{
	const struct ltt_type_desc *t = v->type;
	const unsigned char *p = c->data + c->size;
	uint32_t i = c->index + 1;

	switch (t->kind) {
	case LTT_TYPE_STRUCT:
		if (i >= t->n_fields)
			return -ENOENT;
		set_child(v, c, t->fields[i].type, t->fields[i].name, p, i);
		return 0;
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		if (i >= ltt_value_nchildren(v))
			return -ENOENT;
		set_child(v, c, t->element, NULL, p, i);
		return 0;
	default:
		return -ENOENT;
	}
}

int ltt_value_field(const struct ltt_value *v, const char *name, struct ltt_value *out)
{
	struct ltt_value c;
	int ret;

	if (v->type->kind != LTT_TYPE_STRUCT && v->type->kind != LTT_TYPE_UNION)
		return -EINVAL;
	for (ret = ltt_value_first(v, &c); !ret; ret = ltt_value_next(v, &c))
		if (!strcmp(c.name, name)) {
			*out = c;
			return 0;
		}
	return -ENOENT;
}

int ltt_value_element(const struct ltt_value *v, uint64_t i, struct ltt_value *out)
{
	const struct ltt_type_desc *t = v->type;
	struct ltt_value c;
	int ret;

	if (t->kind != LTT_TYPE_ARRAY && t->kind != LTT_TYPE_SEQUENCE)
		return -EINVAL;
	if (i >= ltt_value_nchildren(v))
		return -ERANGE;
	ret = ltt_value_first(v, &c);
	if (ret)
		return ret;
	if (!t->element->variable) {
		uint32_t es = t->element->fixed_size[v->arch];

		set_child(v, out, t->element, NULL, c.data + i * es, (uint32_t)i);
		return 0;
	}
	while (c.index < i && !(ret = ltt_value_next(v, &c)))
		;
	if (ret)
		return ret;
	*out = c;
	return 0;
}

uint64_t ltt_value_uint(const struct ltt_value *v)
{
	switch (v->type->kind) {
	case LTT_TYPE_INT:
	case LTT_TYPE_UINT:
	case LTT_TYPE_ENUM:
		return read_uint(v->data, int_bytes(v, v->type->size), v->big_endian);
	case LTT_TYPE_FLOAT:
		return (uint64_t)ltt_value_float(v);
	default:
		return 0;
	}
}

int64_t ltt_value_int(const struct ltt_value *v)
{
	unsigned b;
	uint64_t u;

	if (v->type->kind != LTT_TYPE_INT)
		return v->type->kind == LTT_TYPE_FLOAT ? (int64_t)ltt_value_float(v) : (int64_t)ltt_value_uint(v);
	b = int_bytes(v, v->type->size);
	u = read_uint(v->data, b, v->big_endian);
	if (b < 8 && b && (u >> (b * 8 - 1)) & 1)
		u |= ~0ull << (b * 8);
	return (int64_t)u;
}

double ltt_value_float(const struct ltt_value *v)
{
	if (v->type->kind == LTT_TYPE_FLOAT) {
		if (ltt_float_bytes(v->type->size) == 4) {
			uint32_t u = rd_u32(v->data, v->big_endian);
			float f;

			memcpy(&f, &u, 4);
			return f;
		} else {
			uint64_t u = rd_u64(v->data, v->big_endian);
			double d;

			memcpy(&d, &u, 8);
			return d;
		}
	}
	if (v->type->kind == LTT_TYPE_INT)
		return (double)ltt_value_int(v);
	return (double)ltt_value_uint(v);
}

const char *ltt_value_string(const struct ltt_value *v, size_t *len)
{
	if (v->type->kind != LTT_TYPE_STRING) {
		if (len)
			*len = 0;
		return "";
	}
	if (len)
		*len = v->size ? v->size - 1 : 0;
	return (const char *)v->data;
}

const char *ltt_value_enum_label(const struct ltt_value *v)
{
	uint64_t x;

	if (v->type->kind != LTT_TYPE_ENUM)
		return NULL;
	x = ltt_value_uint(v);
	for (uint32_t i = 0; i < v->type->n_labels; i++)
		if (v->type->labels[i].value == x)
			return v->type->labels[i].name;
	return NULL;
}

uint64_t ltt_value_union_code(const struct ltt_value *v)
{
	if (v->type->kind != LTT_TYPE_UNION)
		return 0;
	return read_uint(v->data, int_bytes(v, v->type->size), v->big_endian);
}

uint64_t ltt_event_timespec_ns(const struct ltt_event *ev)
{
	uint64_t s, n;

	if (!ev->type || !ev->type->builtin || ev->size < 8 || ev->id == LTT_ID_FACILITY_LOAD ||
	    (ev->id != LTT_ID_BLOCK_START && ev->id != LTT_ID_BLOCK_END && ev->id != LTT_ID_TIME_HEARTBEAT))
		return 0;
	s = rd_u32(ev->payload, ev->big_endian);
	n = rd_u32(ev->payload + 4, ev->big_endian);
	return s * 1000000000ull + (ev->v1_time ? n * 1000 : n);
}
