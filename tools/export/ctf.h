/* SPDX-License-Identifier: MIT */
/* The CTF export (exp_ctf.c): its TSDL metadata of ltt types (ctf_meta.c), its per-stream encoder
 * (exp_ctf.c) and its block-range parallel path (ctf_par.c). */
#ifndef LTT_TOOLS_EXPORT_CTF_H
#define LTT_TOOLS_EXPORT_CTF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <ltt/eventdefs.h>
#include <ltt/reader.h>

#include "toolkit/export.h"

/* Writes s as a TSDL string literal. */
void ctf_quoted(FILE *m, const char *s);
/* Writes "fields := struct { ... };" for an event body (NULL: no payload), field names made TSDL
 * identifiers (ctf_meta.c states the rule); 0, or -ENOMEM. */
int ctf_body_decl(FILE *m, const struct ltt_type_desc *body, enum ltt_arch_size arch);

#define CTF_HEAD 60			/* packet header (magic, stream_id) + context, bytes */
#define CTF_DISCARDED_AT 48		/* offset of events_discarded in a packet's header */

/* The first block_start of a trace: its clock's offset (metadata). */
struct ctf_anchor {
	int anchored;
	uint64_t cycles, ns;
};

/* The CTF stream of one tracefile: what carries from one event to the next. */
struct ctf_stream {
	const struct ltt_tracefile_info *tf;
	const char *dir;	/* the CTF trace directory its file goes in */
	unsigned trace;
	int be;			/* the trace's byte order */
	int fd;			/* -1 until its first packet */
	unsigned char *buf;	/* the open packet (ahead: every packet of the range) */
	size_t len, cap;
	size_t pkt;		/* where the open packet starts in buf */
	int open, summary;	/* a packet is open; inside a summary block (no packet) */
	int have_ts;
	uint64_t seq, next_seq;	/* packet_seq_num of the open packet, of the next one without block_id */
	uint64_t discarded;	/* running events_discarded */
	uint64_t begin, last;	/* cycles: packet begin, last time written (clamped) */
	/* A block range encoded ahead of its place (ctf_par.c): packets stay in buf, their offsets in
	 * heads; what the encoding took from the state it started with is noted. */
	int ahead;
	size_t *heads;
	size_t nheads, capheads;
	int opened;		/* a packet was opened */
	uint64_t first_begin;	/* the begin of the first packet opened (before the clamp) */
	int used_next_seq;	/* next_seq was used before any packet was opened */
};

/* Encodes one event (builtin records included) of s's tracefile; a block_start anchors a when it
 * is not. 0 or a negative errno (EXPORT_REPORTED when reported). */
int ctf_stream_event(struct ctf_stream *s, struct ctf_anchor *a, const struct ltt_event *ev);
/* Closes the open packet (if any) at time end: writes it, or keeps it in buf when ahead. */
int ctf_close_packet(struct ctf_stream *s, uint64_t end);
/* The stream file of s: DIR/NAME with '/' as '_' ("cpu/0" -> "cpu_0"). */
void ctf_stream_path(const struct ctf_stream *s, char *buf, size_t len);

struct ctf_trace {
	char *dir;
	struct ctf_anchor anchor;
};

struct ctf {
	struct ctf_trace *traces;
	struct ctf_stream *streams;
	unsigned nstreams;
	struct ctf_stream *cur;
};

/* ltt export --format=ctf --threads: ctf.streams encoded by block ranges in ctx->threads threads
 * (ctf_par.c); the export's .parallel. */
int ctf_parallel(struct ltt_export_ctx *ctx);

#endif
