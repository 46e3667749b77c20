/* SPDX-License-Identifier: MIT */
/* ltt export --format=perfetto: Perfetto's protobuf trace (a Trace of TracePackets carrying
 * TrackDescriptors and TrackEvents), for ui.perfetto.dev and trace_processor (doc/viewing.md).
 * The mapping is the timeline's (timeline.h). Field numbers are Perfetto's published ones; the subset
 * written is declared in tests/export/perfetto.proto.
 *
 * One packet sequence (trusted_packet_sequence_id 1). Event names, categories and debug annotation
 * names are interned (InternedData in the packet that first uses them) in bounded tables: past
 * PF_INTERN_MAX strings, or for strings longer than PF_INTERN_LEN, the name is written inline.
 * Timestamps are real time in nanoseconds; a ClockSnapshot first makes the trace clock REALTIME.
 * Stack samples (core.stack_sample) are PerfSample packets with interned callstacks
 * (tools/export/pf_samples.c), not track events. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "toolkit/export.h"
#include "pb.h"
#include "timeline.h"
#include "pf_samples.h"
#include "pf_sched.h"

/* Perfetto field numbers (protos/perfetto/trace/...) */
enum {
	TRACE_PACKET = 1,
	TP_CLOCK_SNAPSHOT = 6, TP_TIMESTAMP = 8, TP_SEQ_ID = 10, TP_TRACK_EVENT = 11, TP_INTERNED = 12,
	TP_SEQ_FLAGS = 13, TP_CLOCK_ID = 58, TP_DEFAULTS = 59, TP_TRACK_DESCRIPTOR = 60,
	SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2,
	DEF_CLOCK_ID = 58,
	CS_CLOCKS = 1, CS_PRIMARY = 2, CLOCK_ID = 1, CLOCK_TIMESTAMP = 2, CLOCK_INCREMENTAL = 3,
	CLOCK_REALTIME = 1, CLOCK_BOOTTIME = 6, CLOCK_DELTA = 64,
	TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4, TD_PARENT = 5, TD_COUNTER = 8,
	PD_PID = 1, PD_NAME = 6,
	THD_PID = 1, THD_TID = 2, THD_NAME = 5,
	TE_CATEGORY_IIDS = 3, TE_ANNOTATIONS = 4, TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK = 11,
	TE_CATEGORIES = 22, TE_NAME = 23, TE_COUNTER_VALUE = 30, TE_FLOW_IDS = 47, TE_TERM_FLOW_IDS = 48,
	TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3, TYPE_COUNTER = 4,
	DA_NAME_IID = 1, DA_BOOL = 2, DA_UINT = 3, DA_INT = 4, DA_DOUBLE = 5, DA_STRING = 6, DA_NAME = 10,
	ID_CATEGORIES = 1, ID_NAMES = 2, ID_ANNOTATION_NAMES = 3, INTERNED_IID = 1, INTERNED_NAME = 2,
};

#define PF_INTERN_MAX 16384	/* strings interned per table; more are written inline */
#define PF_INTERN_LEN 256	/* longer strings are written inline */
#define PF_MAX_ELEMS 64		/* array and sequence elements shown per field */

/* ---- bounded interning tables ------------------------------------------------------------------ */

/* strings (n bytes, not NUL-terminated when looked up; a copy owned by the table once put) -> iid */
LTT_MAP_DEFINE(pf_strs, struct ltt_bytes_key, uint32_t, ltt_bytes_key_hash, ltt_bytes_key_eq)

struct pf_intern {
	uint32_t field;		/* InternedData field of the table */
	struct pf_strs map;	/* at most PF_INTERN_MAX */
};

static int intern_init(struct pf_intern *t, uint32_t field)
{
	t->field = field;
	return pf_strs_reserve(&t->map, PF_INTERN_MAX) ? -ENOMEM : 0;
}

static void intern_free(struct pf_intern *t)
{
	for (size_t i = 0; i < t->map.size; i++)
		if (t->map.slot[i].used)
			free((void *)t->map.slot[i].key.p);
	pf_strs_free(&t->map);
}

/* The iid of s (adding it to `in`, the packet's InternedData, when new; in may be NULL), or 0: write
 * s inline. *is_new (may be NULL) tells whether it was added now. */
static uint64_t intern_new(struct pf_intern *t, struct pb *in, const char *s, size_t n, int *is_new)
{
	struct ltt_bytes_key k = ltt_bytes_key(s, n);
	uint32_t *iid;
	char *copy;

	if (n > PF_INTERN_LEN)
		return 0;
	if ((iid = pf_strs_find(&t->map, k)))
		return *iid;
	if (t->map.count >= PF_INTERN_MAX || !(copy = strndup(s, n)))
		return 0;
	k.p = copy;
	if (!(iid = pf_strs_put(&t->map, k, NULL))) {
		free(copy);
		return 0;
	}
	*iid = (uint32_t)t->map.count;
	if (is_new)
		*is_new = 1;
	if (in) {
		size_t m = pb_begin(in, t->field);

		pb_uint(in, INTERNED_IID, *iid);
		pb_bytes(in, INTERNED_NAME, s, n);
		pb_end(in, m);
	}
	return *iid;
}

static uint64_t intern(struct pf_intern *t, struct pb *in, const char *s, size_t n)
{
	return intern_new(t, in, s, n, NULL);
}

/* ---- state ------------------------------------------------------------------------------------- */

struct pf_op {			/* a scalar field of a flat struct body */
	uint64_t name_iid;	/* 0: name inline */
	const char *name;
	const struct ltt_type_desc *t;
	unsigned bytes;
};

struct pf_plan {		/* per event type */
	uint64_t name_iid, cat_iid;
	int flat;		/* a struct of scalars, read straight from the payload */
	unsigned n;
	struct pf_op ops[];
};

struct pf {
	struct timeline *tl;
	struct pf_intern names, cats, anames;
	struct pf_intern counters;	/* "TRACE:name" of the counter tracks described (not emitted) */
	struct pb pkt, ev, in;	/* the packet's fixed fields, its TrackEvent, its InternedData */
	uint64_t last_ns;
	uint64_t clock_ns;	/* the incremental clock: time of the last timed packet */
	struct prof_pf *prof;	/* stack samples as PerfSample packets (tools/export/pf_samples.c) */
	struct pf_sched *sched;	/* kernel events as ftrace events (tools/export/pf_sched.c) */
	char path[256];
};

/* Track uuids: small numbers for the lanes (most events), the others above them. */
#define LANE_UUID(l) ((uint64_t)(l)->index + 1)
#define PROC_UUID(trace) (1ull << 32 | (uint64_t)(trace))
#define LOST_UUID(p) (2ull << 32 | (uint64_t)(p)->trace)
#define COUNTER_UUID(p, iid) (3ull << 32 | (uint64_t)(iid))
#define CHILD_UUID(p, id) (1ull << 63 | (uint64_t)(p)->trace << 32 | (uint32_t)(id))

/* How a packet is timed: not at all (descriptors), or at ts on the sequence's incremental clock
 * (a delta from the previous timed packet; a time before it is written absolute, on REALTIME). */
enum { PK_UNTIMED, PK_TIMED };

static inline size_t pf_varint_len(uint64_t v)
{
	size_t n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

/* Writes one packet: its fixed fields, then the InternedData and the TrackEvent (or descriptor) built
 * in pf->in and pf->ev. */
static int pf_flush_packet(struct ltt_export_ctx *ctx, uint64_t ts, int timed)
{
	struct pf *f = ctx->priv;
	struct pb *k = &f->pkt;
	size_t body;
	uint8_t *w;

	if (f->ev.error || f->in.error || k->error)
		return -ENOMEM;
	k->len = 0;
	if (timed && ts >= f->clock_ns) {
		pb_uint(k, TP_TIMESTAMP, ts - f->clock_ns);
		f->clock_ns = ts;
	} else if (timed) {
		pb_uint(k, TP_TIMESTAMP, ts);
		pb_uint(k, TP_CLOCK_ID, CLOCK_REALTIME);
	}
	pb_uint(k, TP_SEQ_ID, 1);
	if (k->error)
		return -ENOMEM;
	body = k->len + f->ev.len;
	if (f->in.len)
		body += 1 + pf_varint_len(f->in.len) + f->in.len;
	w = (uint8_t *)dump_out_reserve(ctx->out, 32 + k->len);
	*w++ = TRACE_PACKET << 3 | PB_LEN;
	w = pb_put_varint(w, body);
	memcpy(w, k->buf, k->len);
	w += k->len;
	if (f->in.len) {
		*w++ = TP_INTERNED << 3 | PB_LEN;
		w = pb_put_varint(w, f->in.len);
	}
	dump_out_commit(ctx->out, (char *)w);
	if (f->in.len)
		dump_out_mem(ctx->out, (const char *)f->in.buf, f->in.len);
	dump_out_mem(ctx->out, (const char *)f->ev.buf, f->ev.len);
	f->in.len = 0;
	f->ev.len = 0;
	return ctx->out->error;
}

/* ---- tracks ------------------------------------------------------------------------------------- */

static int pf_process(struct ltt_export_ctx *ctx, struct tl_process *p)
{
	struct pf *f = ctx->priv;
	size_t d, m;

	d = pb_begin(&f->ev, TP_TRACK_DESCRIPTOR);
	pb_uint(&f->ev, TD_UUID, PROC_UUID(p->trace));
	m = pb_begin(&f->ev, TD_PROCESS);
	pb_int(&f->ev, PD_PID, (int32_t)p->pid);
	pb_str(&f->ev, PD_NAME, p->name);
	pb_end(&f->ev, m);
	pb_end(&f->ev, d);
	p->renamed = 0;
	p->user |= 1;
	return pf_flush_packet(ctx, 0, PK_UNTIMED);
}

static int pf_lane(struct ltt_export_ctx *ctx, struct tl_lane *l)
{
	struct pf *f = ctx->priv;
	size_t d, m;
	int ret;

	if (!(l->proc->user & 1) || l->proc->renamed) {
		ret = pf_process(ctx, l->proc);
		if (ret)
			return ret;
	}
	d = pb_begin(&f->ev, TP_TRACK_DESCRIPTOR);
	pb_uint(&f->ev, TD_UUID, LANE_UUID(l));
	if (l->is_thread) {
		m = pb_begin(&f->ev, TD_THREAD);
		pb_int(&f->ev, THD_PID, (int32_t)l->proc->pid);
		pb_int(&f->ev, THD_TID, (int32_t)l->tid);
		pb_str(&f->ev, THD_NAME, l->name);
		pb_end(&f->ev, m);
	} else {
		pb_uint(&f->ev, TD_PARENT, PROC_UUID(l->proc->trace));
		pb_str(&f->ev, TD_NAME, l->name);
	}
	pb_end(&f->ev, d);
	l->renamed = 0;
	l->user[0] = 1;
	return pf_flush_packet(ctx, 0, PK_UNTIMED);
}

static int pf_named_track(struct ltt_export_ctx *ctx, struct tl_process *p, uint64_t uuid, const char *name,
			  int counter)
{
	struct pf *f = ctx->priv;
	size_t d;

	d = pb_begin(&f->ev, TP_TRACK_DESCRIPTOR);
	pb_uint(&f->ev, TD_UUID, uuid);
	pb_uint(&f->ev, TD_PARENT, PROC_UUID(p->trace));
	pb_str(&f->ev, TD_NAME, name);
	if (counter)
		pb_end(&f->ev, pb_begin(&f->ev, TD_COUNTER));
	pb_end(&f->ev, d);
	return pf_flush_packet(ctx, 0, PK_UNTIMED);
}

/* ---- debug annotations ------------------------------------------------------------------------- */

static void pf_annotation_name(struct pf *f, const char *name, size_t n)
{
	uint64_t iid = intern(&f->anames, &f->in, name, n);

	if (iid)
		pb_uint(&f->ev, DA_NAME_IID, iid);
	else
		pb_bytes(&f->ev, DA_NAME, name, n);
}

static void pf_value(struct pb *e, const struct ltt_value *v)
{
	const char *s;
	size_t n;

	switch (v->type->kind) {
	case LTT_TYPE_INT:
		pb_int(e, DA_INT, ltt_value_int(v));
		break;
	case LTT_TYPE_UINT:
		pb_uint(e, DA_UINT, ltt_value_uint(v));
		break;
	case LTT_TYPE_FLOAT:
		pb_double(e, DA_DOUBLE, ltt_value_float(v));
		break;
	case LTT_TYPE_ENUM:
		s = ltt_value_enum_label(v);
		if (s)
			pb_str(e, DA_STRING, s);
		else
			pb_uint(e, DA_UINT, ltt_value_uint(v));
		break;
	case LTT_TYPE_STRING:
		s = ltt_value_string(v, &n);
		pb_bytes(e, DA_STRING, s, n);
		break;
	default:
		break;
	}
}

static int pf_leaf(void *arg, const char *name, size_t len, const struct ltt_value *v)
{
	struct pf *f = arg;
	size_t m = pb_begin(&f->ev, TE_ANNOTATIONS);

	pf_annotation_name(f, name, len);
	pf_value(&f->ev, v);
	pb_end(&f->ev, m);
	return 0;
}

static void pf_flat(struct pf *f, const struct pf_plan *p, const struct ltt_event *ev)
{
	const unsigned char *q = ev->payload, *end = ev->payload + ev->size;

	for (unsigned i = 0; i < p->n; i++) {
		const struct pf_op *op = &p->ops[i];
		size_t m;
		uint64_t v;

		if (__builtin_expect(op->name_iid && (op->t->kind == LTT_TYPE_UINT || op->t->kind == LTT_TYPE_INT), 1)) {
			/* the common case, written straight: at most 24 bytes, so a 1-byte length */
			uint8_t *w, *len;

			if (!pb_room(&f->ev, 32))
				return;
			w = f->ev.buf + f->ev.len;
			*w++ = TE_ANNOTATIONS << 3 | PB_LEN;
			len = w++;
			*w++ = DA_NAME_IID << 3 | PB_VARINT;
			w = pb_put_varint(w, op->name_iid);
			v = dump_get_uint(q, op->bytes, ev->big_endian);
			q += op->bytes;
			if (op->t->kind == LTT_TYPE_INT && op->bytes < 8 && (v >> (op->bytes * 8 - 1)) & 1)
				v |= ~0ull << (op->bytes * 8);
			*w++ = (uint8_t)((op->t->kind == LTT_TYPE_UINT ? DA_UINT : DA_INT) << 3 | PB_VARINT);
			w = pb_put_varint(w, v);
			*len = (uint8_t)(w - len - 1);
			f->ev.len = (size_t)(w - f->ev.buf);
			continue;
		}
		m = pb_begin(&f->ev, TE_ANNOTATIONS);
		if (op->name_iid)
			pb_uint(&f->ev, DA_NAME_IID, op->name_iid);
		else
			pb_str(&f->ev, DA_NAME, op->name);
		if (op->t->kind == LTT_TYPE_STRING) {
			size_t n = strnlen((const char *)q, (size_t)(end - q));

			pb_bytes(&f->ev, DA_STRING, q, n);
			q += n + 1;
			pb_end(&f->ev, m);
			continue;
		}
		v = dump_get_uint(q, op->bytes, ev->big_endian);
		q += op->bytes;
		switch (op->t->kind) {
		case LTT_TYPE_UINT:
			pb_uint(&f->ev, DA_UINT, v);
			break;
		case LTT_TYPE_INT:
			if (op->bytes < 8 && (v >> (op->bytes * 8 - 1)) & 1)
				v |= ~0ull << (op->bytes * 8);
			pb_uint(&f->ev, DA_INT, v);
			break;
		case LTT_TYPE_FLOAT:
			if (op->bytes == 4) {
				uint32_t u = (uint32_t)v;
				float x;

				memcpy(&x, &u, 4);
				pb_double(&f->ev, DA_DOUBLE, x);
			} else {
				double x;

				memcpy(&x, &v, 8);
				pb_double(&f->ev, DA_DOUBLE, x);
			}
			break;
		default: {	/* enum */
			const char *label = NULL;

			for (uint32_t k = 0; k < op->t->n_labels && !label; k++)
				if (op->t->labels[k].value == v)
					label = op->t->labels[k].name;
			if (label)
				pb_str(&f->ev, DA_STRING, label);
			else
				pb_uint(&f->ev, DA_UINT, v);
			break;
		}
		}
		pb_end(&f->ev, m);
	}
}

static struct pf_plan *pf_plan(struct pf *f, const struct ltt_event *ev)
{
	const struct ltt_type_desc *b = ev->type->body;
	unsigned n = b && b->kind == LTT_TYPE_STRUCT ? b->n_fields : 0;
	struct pf_plan *p = calloc(1, sizeof(*p) + n * sizeof(p->ops[0]));
	const char *full = export_type(ev)->full;

	if (!p)
		return NULL;
	p->name_iid = intern(&f->names, &f->in, full, strlen(full));
	p->cat_iid = intern(&f->cats, &f->in, ev->type->facility, strlen(ev->type->facility));
	p->flat = b && b->kind == LTT_TYPE_STRUCT;
	p->n = n;
	for (unsigned i = 0; i < n && p->flat; i++) {
		const struct ltt_type_desc *t = b->fields[i].type;
		struct pf_op *op = &p->ops[i];

		op->t = t;
		op->name = b->fields[i].name;
		switch (t->kind) {
		case LTT_TYPE_INT:
		case LTT_TYPE_UINT:
		case LTT_TYPE_ENUM:
			op->bytes = ltt_size_bytes(t->size, (enum ltt_arch_size)ev->arch);
			break;
		case LTT_TYPE_FLOAT:
			op->bytes = ltt_float_bytes(t->size);
			break;
		case LTT_TYPE_STRING:
			break;
		default:
			p->flat = 0;
			continue;
		}
		op->name_iid = intern(&f->anames, &f->in, op->name, strlen(op->name));
	}
	return p;
}

/* The TrackEvent of an event: name and category (interned), its fields as debug annotations. */
static int pf_event_body(struct pf *f, const struct ltt_event *ev, uint64_t track, unsigned type,
			 const char *name, const char *cat, uint64_t flow)
{
	struct export_type *et = export_type(ev);
	struct pf_plan *p = et->priv;
	struct ltt_value body;
	size_t m;

	if (__builtin_expect(!p, 0)) {
		p = et->priv = pf_plan(f, ev);
		if (!p)
			return -ENOMEM;
	}
	m = pb_begin(&f->ev, TP_TRACK_EVENT);
	pb_uint(&f->ev, TE_TYPE, type);
	pb_uint(&f->ev, TE_TRACK, track);
	if (name) {
		uint64_t iid = intern(&f->names, &f->in, name, strlen(name));

		if (iid)
			pb_uint(&f->ev, TE_NAME_IID, iid);
		else
			pb_str(&f->ev, TE_NAME, name);
	} else if (p->name_iid) {
		pb_uint(&f->ev, TE_NAME_IID, p->name_iid);
	} else {
		pb_str(&f->ev, TE_NAME, et->full);
	}
	if (cat) {
		uint64_t iid = intern(&f->cats, &f->in, cat, strlen(cat));

		if (iid)
			pb_uint(&f->ev, TE_CATEGORY_IIDS, iid);
		else
			pb_str(&f->ev, TE_CATEGORIES, cat);
	} else if (p->cat_iid) {
		pb_uint(&f->ev, TE_CATEGORY_IIDS, p->cat_iid);
	} else {
		pb_str(&f->ev, TE_CATEGORIES, ev->type->facility);
	}
	if (flow)
		pb_fixed64(&f->ev, TE_FLOW_IDS, flow);
	if (p->flat)
		pf_flat(f, p, ev);
	else if (ltt_event_body(ev, &body) == 0)
		export_walk(&body, f->path, sizeof(f->path), 0, PF_MAX_ELEMS, pf_leaf, f);
	pb_end(&f->ev, m);
	return 0;
}

static size_t pf_simple(struct pf *f, uint64_t track, unsigned type)
{
	size_t m = pb_begin(&f->ev, TP_TRACK_EVENT);

	pb_uint(&f->ev, TE_TYPE, type);
	pb_uint(&f->ev, TE_TRACK, track);
	return m;
}

static void pf_annotation_str(struct pf *f, const char *name, const char *v)
{
	size_t m = pb_begin(&f->ev, TE_ANNOTATIONS);

	pf_annotation_name(f, name, strlen(name));
	pb_str(&f->ev, DA_STRING, v);
	pb_end(&f->ev, m);
}

static void pf_annotation_uint(struct pf *f, const char *name, uint64_t v)
{
	size_t m = pb_begin(&f->ev, TE_ANNOTATIONS);

	pf_annotation_name(f, name, strlen(name));
	pb_uint(&f->ev, DA_UINT, v);
	pb_end(&f->ev, m);
}

static void pf_event_name(struct pf *f, const char *name)
{
	uint64_t iid = intern(&f->names, &f->in, name, strlen(name));

	if (iid)
		pb_uint(&f->ev, TE_NAME_IID, iid);
	else
		pb_str(&f->ev, TE_NAME, name);
}

/* ---- the format --------------------------------------------------------------------------------- */

static int pf_begin(struct ltt_export_ctx *ctx)
{
	struct pf *f = calloc(1, sizeof(*f));
	size_t m, c;

	if (!f)
		return -ENOMEM;
	ctx->priv = f;
	{
		const char *pid = ltt_trace_attr(ltt_reader_trace(ctx->reader, 0), "ltt_pid");

		f->prof = prof_pf_new(pid ? (uint32_t)strtoul(pid, NULL, 10) : 0);
	}
	f->sched = pf_sched_new();
	if (!f->prof || !f->sched || timeline_new(&f->tl, ctx->reader) || intern_init(&f->names, ID_NAMES) ||
	    intern_init(&f->cats, ID_CATEGORIES) || intern_init(&f->anames, ID_ANNOTATION_NAMES) || intern_init(&f->counters, 0))
		return -ENOMEM;
	/* The trace clock is REALTIME; BOOTTIME (the packets' default clock) maps to it unchanged; packets
	 * are timed on an incremental clock of the sequence (CLOCK_DELTA, made the default of the
	 * sequence's packets), starting at the same instant. */
	m = pb_begin(&f->ev, TP_CLOCK_SNAPSHOT);
	c = pb_begin(&f->ev, CS_CLOCKS);
	pb_uint(&f->ev, CLOCK_ID, CLOCK_BOOTTIME);
	pb_uint(&f->ev, CLOCK_TIMESTAMP, ctx->first_ns);
	pb_end(&f->ev, c);
	c = pb_begin(&f->ev, CS_CLOCKS);
	pb_uint(&f->ev, CLOCK_ID, CLOCK_REALTIME);
	pb_uint(&f->ev, CLOCK_TIMESTAMP, ctx->first_ns);
	pb_end(&f->ev, c);
	c = pb_begin(&f->ev, CS_CLOCKS);
	pb_uint(&f->ev, CLOCK_ID, CLOCK_DELTA);
	pb_uint(&f->ev, CLOCK_TIMESTAMP, ctx->first_ns);
	pb_uint(&f->ev, CLOCK_INCREMENTAL, 1);
	pb_end(&f->ev, c);
	pb_uint(&f->ev, CS_PRIMARY, CLOCK_REALTIME);
	pb_end(&f->ev, m);
	m = pb_begin(&f->ev, TP_DEFAULTS);
	pb_uint(&f->ev, DEF_CLOCK_ID, CLOCK_DELTA);
	pb_end(&f->ev, m);
	pb_uint(&f->ev, TP_SEQ_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
	f->clock_ns = ctx->first_ns;
	return pf_flush_packet(ctx, 0, PK_UNTIMED);
}

static int pf_child(struct ltt_export_ctx *ctx, const struct tl_event *e)
{
	struct pf *f = ctx->priv;
	struct tl_process *p = e->lane->proc;
	uint64_t uuid = CHILD_UUID(p, e->child_id), flow = uuid;
	char name[64];
	size_t m;
	int ret;

	snprintf(name, sizeof(name), "child %d", e->child_id);
	ret = pf_named_track(ctx, p, uuid, name, 0);
	if (ret)
		return ret;
	/* with the child's own trace in the set, a flow from this slice to the child's process */
	if (!e->child_proc || !e->child_proc->seen)
		flow = 0;
	ret = pf_event_body(f, e->ev, uuid, TYPE_SLICE_BEGIN, name, "child", flow);
	if (ret)
		return ret;
	ret = pf_flush_packet(ctx, e->child_start_ns, PK_TIMED);
	if (!ret) {
		pb_end(&f->ev, pf_simple(f, uuid, TYPE_SLICE_END));
		ret = pf_flush_packet(ctx, e->ev->time_ns, PK_TIMED);
	}
	if (!ret && flow) {
		struct tl_process *c = e->child_proc;

		if (!(c->user & 1) && (ret = pf_process(ctx, c)))
			return ret;
		m = pf_simple(f, PROC_UUID(c->trace), TYPE_INSTANT);
		pf_event_name(f, "ltt: started by parent");
		pb_fixed64(&f->ev, TE_TERM_FLOW_IDS, flow);
		pb_end(&f->ev, m);
		ret = pf_flush_packet(ctx, c->first_ns, PK_TIMED);
	}
	return ret;
}

/* A system call as a slice of its thread's track (name: its entry; NULL: its exit). Lane bit 1 of
 * user[1]: a call is open (an exit without its entry, a call in progress when the trace began, ends
 * nothing). */
/* A system call's slice on its thread's lane: begins (name) or ends (NULL) at time at; a whole call
 * (kernel.syscall) also ends at end_at (0: not). */
static int pf_syscall(struct ltt_export_ctx *ctx, const struct ltt_event *ev, const char *name, uint64_t at,
		      uint64_t end_at)
{
	struct pf *f = ctx->priv;
	struct tl_event e;
	struct tl_lane *l;
	size_t m;
	int ret = timeline_event(f->tl, ev, &e);

	if (ret < 0)
		return ret;
	l = e.lane;
	if (__builtin_expect(!l->user[0] || l->renamed || l->proc->renamed, 0) && (ret = pf_lane(ctx, l)))
		return ret;
	if (at > f->last_ns)
		f->last_ns = at;
	if (!name && !(l->user[1] & 1))
		return 0;
	if (name) {
		if (l->user[1] & 1) {	/* an entry without its exit: the call ends here */
			pb_end(&f->ev, pf_simple(f, LANE_UUID(l), TYPE_SLICE_END));
			if ((ret = pf_flush_packet(ctx, at, PK_TIMED)))
				return ret;
		}
		m = pf_simple(f, LANE_UUID(l), TYPE_SLICE_BEGIN);
		pf_event_name(f, name);
		pb_end(&f->ev, m);
		l->user[1] |= 1;
		if (end_at) {
			if ((ret = pf_flush_packet(ctx, at, PK_TIMED)))
				return ret;
			pb_end(&f->ev, pf_simple(f, LANE_UUID(l), TYPE_SLICE_END));
			l->user[1] &= ~1ull;
			at = end_at;
			if (at > f->last_ns)
				f->last_ns = at;
		}
	} else {
		pb_end(&f->ev, pf_simple(f, LANE_UUID(l), TYPE_SLICE_END));
		l->user[1] &= ~1ull;
	}
	return pf_flush_packet(ctx, at, PK_TIMED);
}

static int pf_event(struct ltt_export_ctx *ctx, const struct ltt_event *ev)
{
	struct pf *f = ctx->priv;
	struct tl_event e;
	struct tl_lane *l;
	size_t m;
	/* stack samples and mappings are core events: the type's flag spares the others a strcmp (7%
	 * of this format's CPU on the bench's int3 trace) */
	int ret = export_type(ev)->core ? prof_pf_event(f->prof, ev, &f->in, &f->ev) : 0;

	uint32_t ktid = 0;
	const char *kname = NULL;

	if (ret)	/* a stack sample: a PerfSample packet, or left out */
		return ret == 2 ? pf_flush_packet(ctx, ev->time_ns, PK_TIMED) : ret < 0 ? ret : 0;
	ret = pf_sched_event(f->sched, ev, &f->ev, &ktid, &kname);
	if (ret < 0)
		return ret;
	if (ret == PF_SCHED_PACKET)
		return pf_flush_packet(ctx, ev->time_ns, PK_TIMED);
	if (ret == PF_SCHED_SKIP)
		return 0;
	if (ret == PF_SCHED_SYSCALL_ENTRY || ret == PF_SCHED_SYSCALL_EXIT)
		return pf_syscall(ctx, ev, ret == PF_SCHED_SYSCALL_ENTRY ? kname : NULL, ev->time_ns, 0);
	if (ret == PF_SCHED_SYSCALL_WHOLE)	/* kernel.syscall: the slice from its entry to its exit */
		return pf_syscall(ctx, ev, kname, pf_sched_entry_ns(f->sched), ev->time_ns);
	ret = timeline_event(f->tl, ev, &e);
	if (ret < 0)
		return ret;
	l = e.lane;
	if (__builtin_expect(!l->user[0] || l->renamed || l->proc->renamed, 0)) {
		ret = pf_lane(ctx, l);
		if (ret)
			return ret;
	}
	if (ev->time_ns > f->last_ns)
		f->last_ns = ev->time_ns;
	switch (e.kind) {
	case TL_BEGIN:
		ret = pf_event_body(f, ev, LANE_UUID(l), TYPE_SLICE_BEGIN, e.name, e.category, 0);
		break;
	case TL_END:
		pb_end(&f->ev, pf_simple(f, LANE_UUID(l), TYPE_SLICE_END));
		break;
	case TL_LOST:
		if (!(l->proc->user & 2)) {
			ret = pf_named_track(ctx, l->proc, LOST_UUID(l->proc), "ltt: lost events", 0);
			if (ret)
				return ret;
			l->proc->user |= 2;
		}
		m = pf_simple(f, LOST_UUID(l->proc), TYPE_INSTANT);
		pf_event_name(f, e.cause);
		pf_annotation_uint(f, "count", e.count);
		pf_annotation_str(f, "cause", e.cause);
		pf_annotation_str(f, "tracefile", ev->tracefile->name);
		pb_end(&f->ev, m);
		break;
	case TL_CHILD:
		return pf_child(ctx, &e);
	case TL_SLICE:	/* a whole call (func.call): begun at its start, ended now, on its thread */
		ret = pf_event_body(f, ev, LANE_UUID(l), TYPE_SLICE_BEGIN, e.name, e.category, 0);
		if (!ret)
			ret = pf_flush_packet(ctx, e.slice_start_ns, PK_TIMED);
		if (!ret)
			pb_end(&f->ev, pf_simple(f, LANE_UUID(l), TYPE_SLICE_END));
		break;
	case TL_COUNTER: {
		char key[PF_INTERN_LEN + 16];
		uint64_t cid;

		/* one counter track per process and name: its id is the name's iid in a table of its own,
		 * keyed by trace, so a track is described once */
		int is_new = 0;

		snprintf(key, sizeof(key), "%u:%s", l->proc->trace, e.category);
		cid = intern_new(&f->counters, NULL, key, strlen(key), &is_new);
		if (is_new) {
			ret = pf_named_track(ctx, l->proc, COUNTER_UUID(l->proc, cid), e.category, 1);
			if (ret)
				return ret;
		}
		if (cid) {	/* past PF_INTERN_MAX counter tracks, values are only instants */
			m = pf_simple(f, COUNTER_UUID(l->proc, cid), TYPE_COUNTER);
			pb_int(&f->ev, TE_COUNTER_VALUE, e.value);
			pb_end(&f->ev, m);
			ret = pf_flush_packet(ctx, ev->time_ns, PK_TIMED);
			if (ret)
				return ret;
		}
	}
		__attribute__((fallthrough));
	case TL_INSTANT:
		ret = pf_event_body(f, ev, LANE_UUID(l), TYPE_INSTANT, NULL, NULL, 0);
		break;
	}
	if (ret)
		return ret;
	return pf_flush_packet(ctx, ev->time_ns, PK_TIMED);
}

static int pf_end(struct ltt_export_ctx *ctx, int failed)
{
	struct pf *f = ctx->priv;
	int ret = 0;

	if (!f)
		return 0;
	for (unsigned i = 0; !failed && !ret && f->tl && i < timeline_nlanes(f->tl); i++) {
		struct tl_lane *l = timeline_lane(f->tl, i);

		if (!failed && (l->user[1] & 1)) {	/* a system call open at the end ends there */
			pb_end(&f->ev, pf_simple(f, LANE_UUID(l), TYPE_SLICE_END));
			ret = pf_flush_packet(ctx, f->last_ns, PK_TIMED);
		}
		for (; l->depth && !ret; l->depth--) {	/* regions open at the end end there */
			pb_end(&f->ev, pf_simple(f, LANE_UUID(l), TYPE_SLICE_END));
			ret = pf_flush_packet(ctx, f->last_ns, PK_TIMED);
		}
	}
	for (unsigned i = 0; i < ltt_reader_ntraces(ctx->reader); i++) {
		const struct ltt_trace_info *t = ltt_reader_trace(ctx->reader, i);

		for (unsigned k = 0; k < t->nevent_types; k++) {
			struct export_type *et = *t->event_types[k]->user;

			free(et->priv);
			et->priv = NULL;
		}
	}
	timeline_free(f->tl);
	prof_pf_free(f->prof);
	pf_sched_free(f->sched);
	intern_free(&f->names);
	intern_free(&f->cats);
	intern_free(&f->anames);
	intern_free(&f->counters);
	pb_free(&f->pkt);
	pb_free(&f->ev);
	pb_free(&f->in);
	free(f);
	return ret;
}

const struct ltt_exporter ltt_exp_perfetto = {
	.name = "perfetto",
	.summary = "Perfetto protobuf trace: ui.perfetto.dev, trace_processor",
	.suffix = ".pftrace",
	.lost = 1,
	.begin = pf_begin,
	.event = pf_event,
	.end = pf_end,
};
