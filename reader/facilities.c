/* SPDX-License-Identifier: MIT */
/* Facilities of a trace (doc/format.md sections 1, 6, 10): the builtin facility, eventdefs/NAME.xml,
 * control/facilities, and the per-id decode plan built from them. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/clock.h"
#include "common/grow.h"
#include "reader_internal.h"

static const char builtin_xml[] =
	"<facility name=\"builtin\">\n"
	"<event name=\"facility_load\"><struct>\n"
	"  <field name=\"name\"><string/></field>\n"
	"  <field name=\"checksum\"><uint size=\"4\"/></field>\n"
	"  <field name=\"base_code\"><uint size=\"4\"/></field></struct></event>\n"
	"<event name=\"events_lost\"><struct>\n"
	"  <field name=\"count\"><uint size=\"8\"/></field>\n"
	"  <field name=\"cause\"><enum size=\"1\">buffer_full too_big nested torn internal</enum></field>"
	"</struct></event>\n"
	"<event name=\"blocks_lost\"><struct>\n"
	"  <field name=\"blocks\"><uint size=\"4\"/></field>\n"
	"  <field name=\"events\"><uint size=\"8\"/></field></struct></event>\n"
	"<event name=\"block_start\"><typeref name=\"block_timestamp\"/></event>\n"
	"<event name=\"block_end\"><typeref name=\"block_timestamp\"/></event>\n"
	"<event name=\"time_heartbeat\"><typeref name=\"timestamp\"/></event>\n"
	"<type name=\"block_timestamp\"><struct>\n"
	"  <field name=\"timestamp\"><typeref name=\"timestamp\"/></field>\n"
	"  <field name=\"block_id\"><uint size=\"4\"/></field></struct></type>\n"
	"<type name=\"timestamp\"><struct>\n"
	"  <field name=\"time\"><typeref name=\"timespec\"/></field>\n"
	"  <field name=\"cycle_count\"><uint size=\"8\"/></field></struct></type>\n"
	"<type name=\"timespec\"><struct>\n"
	"  <field name=\"seconds\"><uint size=\"4\"/></field>\n"
	"  <field name=\"nanoseconds\"><uint size=\"4\"/></field></struct></type>\n"
	"</facility>\n";

static const struct { const char *name; uint16_t id; uint8_t kind; } builtin_ids[] = {
	{ "facility_load", LTT_ID_FACILITY_LOAD, EVK_FACILITY_LOAD },
	{ "events_lost", LTT_ID_EVENTS_LOST, EVK_EVENTS_LOST },
	{ "blocks_lost", LTT_ID_BLOCKS_LOST, EVK_BLOCKS_LOST },
	{ "block_start", LTT_ID_BLOCK_START, EVK_BLOCK_START },
	{ "block_end", LTT_ID_BLOCK_END, EVK_BLOCK_END },
	{ "time_heartbeat", LTT_ID_TIME_HEARTBEAT, EVK_HEARTBEAT },
};

static int plan_grow(struct trace *t, size_t n)
{
	if (n <= t->nplan)
		return 0;
	if (LTT_GROW_ZERO(t->plan, n, t->capplan))	/* entries past nplan were never written: zero */
		return -ENOMEM;
	t->nplan = n;
	return 0;
}

/* Nonzero when t holds an array or sequence of zero-byte elements (an empty struct): a few bytes of
 * trace could then stand for billions of values, so such events are refused. */
static int zero_size_elements(const struct ltt_type_desc *t, enum ltt_arch_size arch, int depth)
{
	if (!t || depth > 64)
		return depth > 64;
	switch (t->kind) {
	case LTT_TYPE_ARRAY:
	case LTT_TYPE_SEQUENCE:
		if (!t->element->variable && t->element->fixed_size[arch] == 0)
			return 1;
		return zero_size_elements(t->element, arch, depth + 1);
	case LTT_TYPE_STRUCT:
	case LTT_TYPE_UNION:
		for (uint32_t i = 0; i < t->n_fields; i++)
			if (zero_size_elements(t->fields[i].type, arch, depth + 1))
				return 1;
		return 0;
	default:
		return 0;
	}
}

/* An event type and the application's slot its user field points at (one allocation: freeing the
 * type frees both). */
struct type_box {
	struct ltt_event_type type;	/* first */
	void *user;
};

/* Gives id to event ev of facility fac. */
static int assign(struct trace *t, const struct ltt_facility_desc *fac, const struct ltt_event_desc *ev,
		  unsigned id, uint8_t kind, int builtin)
{
	struct type_box *box;
	struct ltt_event_type *ty;
	struct ev_plan *p;
	int ret = plan_grow(t, (size_t)id + 1);

	if (ret)
		return ret;
	if (zero_size_elements(ev->body, t->info.arch_size, 0)) {
		rd_problem(t->reader, t, "eventdefs", -1, 0, "event %s.%s: an array or sequence of zero-byte "
			   "elements is not supported; its events cannot be decoded", fac->name, ev->name);
		return 0;
	}
	box = calloc(1, sizeof(*box));
	ty = box ? &box->type : NULL;
	if (!ty || LTT_GROW(t->types, t->ntypes + 1, t->captypes)) {
		free(box);
		return -ENOMEM;
	}
	t->types[t->ntypes++] = ty;
	ty->user = &box->user;
	ty->facility = fac->name;
	ty->name = ev->name;
	ty->id = (uint16_t)id;
	ty->index = (uint16_t)ev->index;
	ty->checksum = builtin ? 0 : fac->checksum;
	ty->fac = fac;
	ty->desc = ev;
	ty->body = ev->body;
	ty->builtin = (unsigned)builtin;
	if (!ev->body)
		ty->fixed_size = 0;
	else if (ev->body->variable)
		ty->fixed_size = LTT_SIZE_VARIABLE;
	else
		ty->fixed_size = ev->body->fixed_size[t->info.arch_size];
	p = &t->plan[id];
	p->fixed = ty->fixed_size;
	p->kind = kind;
	p->hidden = (uint8_t)builtin;
	p->type = ty;
	return 0;
}

static int load_builtin(struct trace *t, char *err, size_t errlen)
{
	const struct ltt_facility_desc *fac;
	int ret = ltt_eventdefs_parse_mem(builtin_xml, sizeof(builtin_xml) - 1, "builtin", &t->builtin_defs,
					  err, errlen);

	if (ret)
		return ret;
	fac = &t->builtin_defs->facilities[0];
	for (size_t i = 0; i < sizeof(builtin_ids) / sizeof(builtin_ids[0]); i++) {
		const struct ltt_event_desc *ev = ltt_facility_find_event(fac, builtin_ids[i].name);

		if (!ev)
			return -EINVAL;
		ret = assign(t, fac, ev, builtin_ids[i].id, builtin_ids[i].kind, 1);
		if (ret)
			return ret;
	}
	return 0;
}

/* Following: eventdefs/NAME was parsed already. */
static int parsed(const struct trace *t, const char *name)
{
	for (size_t i = 0; i < t->ndefnames; i++)
		if (!strcmp(t->defnames[i], name))
			return 1;
	return 0;
}

/* Parses every eventdefs/NAME.xml; files that fail are reported and skipped. */
static int load_eventdefs(struct trace *t, char *err, size_t errlen)
{
	char path[4096], **names = NULL;
	size_t n = 0;
	DIR *d;
	int ret = 0;

	snprintf(path, sizeof(path), "%s/eventdefs", t->dir);
	d = opendir(path);
	if (!d && t->ndefnames + t->ndefs && errno == ENOENT)
		return 0;	/* following: the chunk was renamed meanwhile (rd_follow_finish looks again) */
	if (!d) {
		if (rd_resource_error(-errno)) {
			ret = -errno;
			rd_seterr(err, errlen, "%s/eventdefs: %s", t->path, strerror(-ret));
			return ret;
		}
		rd_problem(t->reader, t, "eventdefs", -1, 0, "cannot open the directory: %s", strerror(errno));
		return 0;
	}
	ret = rd_dir_names(d, ".xml", &names, &n);
	closedir(d);
	for (size_t i = 0; i < n && !ret; i++) {
		if (parsed(t, names[i]))
			continue;
		struct ltt_eventdefs *defs = NULL;
		char perr[512], rel[300];
		int pret;

		snprintf(path, sizeof(path), "%s/eventdefs/%s", t->dir, names[i]);
		snprintf(rel, sizeof(rel), "eventdefs/%s", names[i]);
		if (t->reader->follow) {	/* parsed once: a later look adds only new files */
			if (LTT_GROW(t->defnames, t->ndefnames + 1, t->capdefnames)) {
				ret = -ENOMEM;
				break;
			}
			t->defnames[t->ndefnames++] = names[i];
			names[i] = NULL;
		}
		if ((pret = ltt_eventdefs_parse_file(path, &defs, perr, sizeof(perr)))) {
			/* following: a file being written (the recorder writes it with the facility_load)
			 * is parsed again later */
			if (t->reader->follow && !t->final && pret != -ENOMEM && !rd_resource_error(pret)) {
				free(t->defnames[--t->ndefnames]);
				continue;
			}
			const char *msg = strstr(perr, ".xml:");

			if (rd_resource_error(pret)) {
				rd_seterr(err, errlen, "%s/%s: %s", t->path, rel, strerror(-pret));
				ret = pret;
				break;
			}
			rd_problem(t->reader, t, rel, -1, 0, "%s", msg ? msg + 5 + (msg[5] == ' ') : perr);
			continue;
		}
		if (LTT_GROW(t->defs, t->ndefs + 1, t->capdefs)) {
			ltt_eventdefs_free(defs);
			ret = -ENOMEM;
			break;
		}
		t->defs[t->ndefs++] = defs;
	}
	rd_dir_names_free(names, n);
	return ret;
}

static const struct ltt_facility_desc *find_facility(struct trace *t, const char *name, uint32_t checksum,
						     int any_checksum, const struct ltt_facility_desc **other)
{
	*other = NULL;
	for (size_t i = 0; i < t->ndefs; i++)
		for (uint32_t k = 0; k < t->defs[i]->n_facilities; k++) {
			const struct ltt_facility_desc *f = &t->defs[i]->facilities[k];

			if (strcmp(f->name, name))
				continue;
			if (any_checksum || f->checksum == checksum)
				return f;
			*other = f;
		}
	return NULL;
}

/* Gives the facility the ids base .. base + n_events - 1. */
static int place_facility(struct trace *t, const struct ltt_facility_desc *fac, uint32_t base,
			  const char *file, int64_t off)
{
	int ret;

	if ((uint64_t)base + fac->n_events > 65536) {
		rd_problem(t->reader, t, file, off, 0, "facility %s: base code %u + %u events passes id 65535",
			   fac->name, base, fac->n_events);
		return 0;
	}
	for (uint32_t i = 0; i < fac->n_events; i++) {
		unsigned id = base + i;

		if (id < t->nplan && t->plan[id].kind != EVK_NONE) {
			const struct ltt_event_type *o = t->plan[id].type;

			if (o->fac == fac && o->index == i)
				continue;	/* the same facility loaded twice */
			rd_problem(t->reader, t, file, off, 0,
				   "facility %s: id %u is already event %s.%s; its events from there are ignored",
				   fac->name, id, o->facility, o->name);
			return 0;
		}
		ret = assign(t, fac, &fac->events[i], id, EVK_NORMAL, 0);
		if (ret)
			return ret;
	}
	return 0;
}

static struct tracefile *find_tracefile(struct trace *t, const char *name)
{
	for (size_t i = 0; i < t->ntf; i++)
		if (!strcmp(t->tf[i]->info.name, name))
			return t->tf[i];
	return NULL;
}

/* Reads blocks from .. to - 1 of control/facilities (with a tracefile of its own, so that the real
 * one is read again from the start when iterating) and places each facility it loads. Following a
 * trace still written, a facility_load whose eventdefs/ file is not there yet stops the pass at its
 * block, to be read again later (5 s at most). t->fl_blocks: where the next pass starts. */
static int read_facility_loads(struct trace *t, uint64_t from, uint64_t to)
{
	struct tracefile *real = find_tracefile(t, "control/facilities"), tf;
	int ret = 0, hidden, waiting = 0, follow = t->reader->follow, wait = follow && !t->final;

	if (!real || !t->nplan || from >= to) {	/* no plan (a 2004 trace without its core facility) */
		t->fl_blocks = to > from ? to : from;
		return 0;
	}
	memset(&tf, 0, sizeof(tf));
	tf.info.name = real->info.name;
	tf.info.nblocks = to;
	tf.info.cpu = -1;
	tf.trace = t;
	tf.fd = real->fd;
	tf.next_block = from;
	tf.last_block = UINT64_MAX;
	hidden = t->plan[LTT_ID_FACILITY_LOAD].hidden;
	/* builtin events are hidden unless LTT_READ_BUILTIN, and hidden ones are dropped from the
	 * block: this pass must see facility_load */
	t->plan[LTT_ID_FACILITY_LOAD].hidden = 0;
	t->reader->quiet = 1;	/* this pass is repeated when iterating: its damage is reported then */
	t->reader->follow = 0;	/* read what is there (a plain pass: no stall, no waiting) */
	while (!ret && !waiting && rd_tracefile_fill(&tf)) {
		const struct blk_event *e = &tf.ev[tf.pos++];
		const unsigned char *p = tf.blk + e->off + EV_HEADER;
		size_t nlen = strnlen((const char *)p, e->size);
		const struct ltt_facility_desc *fac, *other;
		char name[256];
		uint32_t sum, base;

		if (e->id >= t->nplan || t->plan[e->id].kind != EVK_FACILITY_LOAD || nlen + 9 != e->size)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)nlen, (const char *)p);
		sum = rd_u32(p + nlen + 1, t->info.big_endian);
		base = rd_u32(p + nlen + 5, t->info.big_endian);
		fac = find_facility(t, name, sum, 0, &other);
		if (!fac && wait) {
			uint64_t now = ltt_mono_ns();

			if (!t->fl_wait_since)
				t->fl_wait_since = now;
			if (now - t->fl_wait_since < 5000000000ull) {
				waiting = 1;	/* from this block again, once its eventdefs/ file is there */
				from = tf.next_block - 1;
				break;
			}
		}
		t->reader->quiet = 0;
		if (!fac && other)
			rd_problem(t->reader, t, "control/facilities", (int64_t)(tf.blk_off + e->off), 0,
				   "facility_load %s checksum 0x%08x: eventdefs has %s with checksum 0x%08x "
				   "(%s); its events cannot be decoded", name, sum, name, other->checksum,
				   other->file ? other->file : "?");
		else if (!fac)
			rd_problem(t->reader, t, "control/facilities", (int64_t)(tf.blk_off + e->off), 0,
				   "facility_load %s checksum 0x%08x: no such facility in eventdefs/; its events "
				   "cannot be decoded", name, sum);
		else
			ret = place_facility(t, fac, base, "control/facilities",
					     (int64_t)(tf.blk_off + e->off));
		t->reader->quiet = 1;
	}
	t->reader->quiet = 0;
	t->reader->follow = follow;
	t->plan[LTT_ID_FACILITY_LOAD].hidden = (uint8_t)hidden;
	free(tf.blk);
	free(tf.ev);
	t->fl_blocks = waiting ? from : to;
	if (!waiting)
		t->fl_wait_since = 0;
	return ret;
}

/* The original dialects: core at base 0, holding the builtin events at their old ids. */
static int load_legacy(struct trace *t)
{
	const struct ltt_facility_desc *core, *other;
	int ret;

	core = find_facility(t, "core", 0, 1, &other);
	if (!core) {
		rd_problem(t->reader, t, "eventdefs", -1, 0, "no core facility: this dialect needs it at base 0");
		return 0;
	}
	for (uint32_t i = 0; i < core->n_events; i++) {
		const struct ltt_event_desc *ev = &core->events[i];
		uint8_t kind = EVK_NORMAL;
		int builtin = 0;

		for (size_t k = 0; k < sizeof(builtin_ids) / sizeof(builtin_ids[0]); k++)
			if (builtin_ids[k].id == i && !strcmp(builtin_ids[k].name, ev->name)) {
				kind = builtin_ids[k].kind;
				builtin = 1;
			}
		ret = assign(t, core, ev, i, kind, builtin);
		if (ret)
			return ret;
	}
	return 0;
}

int rd_facilities_load(struct trace *t, char *err, size_t errlen)
{
	int ret = load_eventdefs(t, err, errlen);

	if (ret == -ENOMEM)
		goto fail;
	if (ret)
		return ret;	/* err says which file */
	if (t->v1 || t->v2) {
		ret = load_legacy(t);
	} else {
		ret = load_builtin(t, err, errlen);
		if (ret) {
			if (ret != -ENOMEM)
				rd_seterr(err, errlen, "%s: the builtin facility does not parse (%s)", t->path,
					  err ? err : "");
			return ret;
		}
	}
	if (!ret) {
		struct tracefile *fl = find_tracefile(t, "control/facilities");

		ret = read_facility_loads(t, 0, fl ? fl->info.nblocks : 0);
	}
	if (!ret) {
		t->info.event_types = (const struct ltt_event_type *const *)t->types;
		t->info.nevent_types = (unsigned)t->ntypes;
		return 0;
	}
fail:
	rd_seterr(err, errlen, "%s: %s", t->path, strerror(-ret));
	return ret;
}

int rd_facilities_follow(struct trace *t)
{
	struct tracefile *fl = find_tracefile(t, "control/facilities");
	size_t ntypes = t->ntypes;
	int ret;

	if (t->v1 || t->v2 || !fl || fl->info.nblocks <= t->fl_blocks)
		return 0;
	ret = load_eventdefs(t, NULL, 0);
	if (!ret)
		ret = read_facility_loads(t, t->fl_blocks, fl->info.nblocks);
	if (ret)
		return ret;
	t->info.event_types = (const struct ltt_event_type *const *)t->types;
	t->info.nevent_types = (unsigned)t->ntypes;
	return t->ntypes > ntypes;
}

void rd_facilities_free(struct trace *t)
{
	for (size_t i = 0; i < t->ntypes; i++)
		free(t->types[i]);
	free(t->types);
	free(t->plan);
	for (size_t i = 0; i < t->ndefs; i++)
		ltt_eventdefs_free(t->defs[i]);
	free(t->defs);
	for (size_t i = 0; i < t->ndefnames; i++)
		free(t->defnames[i]);
	free(t->defnames);
	ltt_eventdefs_free(t->builtin_defs);
}

const struct ltt_event_type *ltt_trace_event_type(const struct ltt_trace_info *info, unsigned id)
{
	const struct trace *t = (const struct trace *)info;

	return id < t->nplan ? t->plan[id].type : NULL;
}
