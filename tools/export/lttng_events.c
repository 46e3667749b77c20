/* SPDX-License-Identifier: MIT */
/* The LTTng kernel vocabulary of `ltt export --format=lttng` (lttng_events.h): the metadata in TSDL
 * (CTF 1.8; every integer byte-aligned and little-endian, as written by exp_lttng.c) with the
 * environment LTTng's kernel tracer writes, and the field names of lttng-modules' events. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit/sched_decode.h"
#include "common/syscall_names.h"
#include "ctf.h"
#include "lttng_events.h"

/* The system calls whose entry arguments lttng-analyses' I/O analysis reads, with lttng-modules'
 * names for the registers (the x86_64 argument order). */
static const struct {
	const char *call;
	struct lt_args a;
} args[] = {
	{ "read", { 3, { "fd", "buf", "count" }, { 0, 1, 2 }, { 0 } } },
	{ "write", { 3, { "fd", "buf", "count" }, { 0, 1, 2 }, { 0 } } },
	{ "pread64", { 4, { "fd", "buf", "count", "pos" }, { 0, 1, 2, 3 }, { 0 } } },
	{ "pwrite64", { 4, { "fd", "buf", "count", "pos" }, { 0, 1, 2, 3 }, { 0 } } },
	{ "readv", { 3, { "fd", "vec", "vlen" }, { 0, 1, 2 }, { 0 } } },
	{ "writev", { 3, { "fd", "vec", "vlen" }, { 0, 1, 2 }, { 0 } } },
	{ "preadv", { 3, { "fd", "vec", "vlen" }, { 0, 1, 2 }, { 0 } } },
	{ "pwritev", { 3, { "fd", "vec", "vlen" }, { 0, 1, 2 }, { 0 } } },
	{ "close", { 1, { "fd" }, { 0 }, { 0 } } },
	{ "open", { 3, { "filename", "flags", "mode" }, { 0, 1, 2 }, { 1, 0, 0 } } },
	{ "openat", { 4, { "dfd", "filename", "flags", "mode" }, { 0, 1, 2, 3 }, { 0, 1, 0, 0 } } },
	{ "dup", { 1, { "fildes" }, { 0 }, { 0 } } },
	{ "dup2", { 2, { "oldfd", "newfd" }, { 0, 1 }, { 0 } } },
	{ "dup3", { 3, { "oldfd", "newfd", "flags" }, { 0, 1, 2 }, { 0 } } },
	{ "fcntl", { 3, { "fd", "cmd", "arg" }, { 0, 1, 2 }, { 0 } } },
	{ "recvfrom", { 6, { "fd", "ubuf", "size", "flags", "addr", "addr_len" }, { 0, 1, 2, 3, 4, 5 }, { 0 } } },
	{ "sendto", { 6, { "fd", "buff", "len", "flags", "addr", "addr_len" }, { 0, 1, 2, 3, 4, 5 }, { 0 } } },
	{ "recvmsg", { 3, { "fd", "msg", "flags" }, { 0, 1, 2 }, { 0 } } },
	{ "sendmsg", { 3, { "fd", "msg", "flags" }, { 0, 1, 2 }, { 0 } } },
	{ "fsync", { 1, { "fd" }, { 0 }, { 0 } } },
	{ "fdatasync", { 1, { "fd" }, { 0 }, { 0 } } },
	{ "sync_file_range", { 4, { "fd", "offset", "nbytes", "flags" }, { 0, 1, 2, 3 }, { 0 } } },
	{ "splice", { 6, { "fd_in", "off_in", "fd_out", "off_out", "len", "flags" }, { 0, 1, 2, 3, 4, 5 }, { 0 } } },
	{ "sendfile64", { 4, { "out_fd", "in_fd", "offset", "count" }, { 0, 1, 2, 3 }, { 0 } } },
	{ "socket", { 3, { "family", "type", "protocol" }, { 0, 1, 2 }, { 0 } } },
	{ "accept", { 3, { "fd", "upeer_sockaddr", "upeer_addrlen" }, { 0, 1, 2 }, { 0 } } },
	{ "accept4", { 4, { "fd", "upeer_sockaddr", "upeer_addrlen", "flags" }, { 0, 1, 2, 3 }, { 0 } } },
};

const struct lt_args *lt_syscall_args(const char *name)
{
	for (size_t i = 0; i < sizeof(args) / sizeof(args[0]); i++)
		if (!strcmp(args[i].call, name))
			return &args[i].a;
	return NULL;
}

void lt_learn(struct lt_names *n, uint32_t tid, const char *comm)
{
	struct lt_thread *t;

	if (!tid || tid == SCHED_TID_NONE || !comm || !*comm)
		return;
	if ((t = lt_tids_put(&n->t, tid, NULL)))	/* out of memory: the thread keeps no name, written "" */
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

void lt_set_call(struct lt_names *n, uint32_t tid, uint32_t nr)
{
	struct lt_thread *t;

	if (!tid || tid == SCHED_TID_NONE)
		return;
	if ((t = lt_tids_put(&n->t, tid, NULL)))
		t->call = nr;
}

uint32_t lt_call(const struct lt_names *n, uint32_t tid)
{
	const struct lt_thread *t = tid ? lt_tids_find(&n->t, tid) : NULL;

	return t ? t->call : 0;
}

const char *lt_comm(const struct lt_names *n, uint32_t tid)
{
	const struct lt_thread *t;

	if (tid == 0)
		return "swapper";
	t = lt_tids_find(&n->t, tid);
	return t ? t->comm : "";
}

void lt_names_free(struct lt_names *n)
{
	lt_tids_free(&n->t);
}

static void event(FILE *f, unsigned id, const char *name, const char *fields)
{
	fprintf(f, "event {\n\tname = \"%s\";\n\tid = %u;\n\tstream_id = 0;\n\tfields := struct {\n%s\t};\n};\n\n",
		name, id, fields);
}

int lt_metadata(const char *dir, const unsigned char uuid[16], const struct lt_names *n,
		const struct ltt_trace_info *trace)
{
	const char *machine = trace ? ltt_trace_attr(trace, "machine") : NULL;
	const char *host = trace ? ltt_trace_attr(trace, "node_name") : NULL;
	const char *rel = trace ? ltt_trace_attr(trace, "kernel_release") : NULL;
	const char *ver = trace ? ltt_trace_attr(trace, "kernel_version") : NULL;
	char path[4200], u[40];
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	snprintf(u, sizeof(u), "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", uuid[0],
		 uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7], uuid[8], uuid[9], uuid[10], uuid[11],
		 uuid[12], uuid[13], uuid[14], uuid[15]);
	fprintf(f, "/* CTF 1.8 */\n\n"
		"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
		"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
		"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
		"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
		"typealias integer { size = 64; align = 8; signed = false; base = x; } := unsigned long;\n\n"
		"trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"%s\";\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n\t\tuint32_t stream_id;\n\t};\n};\n\n",
		u);
	fputs("env {\n\thostname = ", f);
	ctf_quoted(f, host ? host : "");
	fputs(";\n\tdomain = \"kernel\";\n\tsysname = \"Linux\";\n\tkernel_release = ", f);
	ctf_quoted(f, rel ? rel : "");
	fputs(";\n\tkernel_version = ", f);
	ctf_quoted(f, ver ? ver : "");
	fputs(";\n\ttracer_name = \"lttng-modules\";\n\ttracer_major = 2;\n\ttracer_minor = 12;\n"
	      "\ttracer_patchlevel = 0;\n\ttrace_producer = \"ltt export --format=lttng\";\n};\n\n", f);
	fprintf(f, "clock {\n\tname = \"monotonic\";\n\tuuid = \"%s\";\n\tdescription = \"the ltt trace's time (ns since "
		"the Epoch)\";\n\tfreq = 1000000000;\n\tprecision = 1;\n\toffset_s = 0;\n\toffset = 0;\n\tabsolute = TRUE;\n};\n\n"
		"typealias integer { size = 64; align = 8; signed = false; map = clock.monotonic.value; } "
		":= uint64_clock_monotonic_t;\n\n"
		"stream {\n\tid = 0;\n\tevent.header := struct {\n\t\tuint32_t id;\n\t\tuint64_clock_monotonic_t timestamp;\n\t};\n"
		"\tpacket.context := struct {\n\t\tuint64_clock_monotonic_t timestamp_begin;\n"
		"\t\tuint64_clock_monotonic_t timestamp_end;\n\t\tuint64_t content_size;\n\t\tuint64_t packet_size;\n"
		"\t\tunsigned long events_discarded;\n\t\tuint32_t cpu_id;\n\t};\n};\n\n", u);
	event(f, LT_EV_SCHED_SWITCH, "sched_switch",
	      "\t\tstring prev_comm;\n\t\tint32_t prev_tid;\n\t\tint32_t prev_prio;\n\t\tint64_t prev_state;\n"
	      "\t\tstring next_comm;\n\t\tint32_t next_tid;\n\t\tint32_t next_prio;\n");
	event(f, LT_EV_SCHED_WAKEUP, "sched_wakeup",
	      "\t\tstring comm;\n\t\tint32_t tid;\n\t\tint32_t prio;\n\t\tint32_t target_cpu;\n");
	event(f, LT_EV_IRQ_ENTRY, "irq_handler_entry", "\t\tint32_t irq;\n\t\tstring name;\n");
	event(f, LT_EV_IRQ_EXIT, "irq_handler_exit", "\t\tint32_t irq;\n\t\tint32_t ret;\n");
	event(f, LT_EV_SOFTIRQ_ENTRY, "softirq_entry", "\t\tuint32_t vec;\n");
	event(f, LT_EV_SOFTIRQ_EXIT, "softirq_exit", "\t\tuint32_t vec;\n");
	/* processes named as lttng-analyses takes them (linuxautomaton: sched.py, statedump.py) */
	event(f, LT_EV_FORK, "sched_process_fork",
	      "\t\tstring parent_comm;\n\t\tint32_t parent_tid;\n\t\tint32_t parent_pid;\n"
	      "\t\tstring child_comm;\n\t\tint32_t child_tid;\n\t\tint32_t child_pid;\n");
	event(f, LT_EV_EXEC, "sched_process_exec",
	      "\t\tstring filename;\n\t\tint32_t tid;\n\t\tint32_t old_tid;\n\t\tstring procname;\n");
	event(f, LT_EV_STATEDUMP, "lttng_statedump_process_state",
	      "\t\tint32_t tid;\n\t\tint32_t vtid;\n\t\tint32_t pid;\n\t\tint32_t vpid;\n\t\tint32_t ppid;\n"
	      "\t\tint32_t vppid;\n\t\tstring name;\n\t\tint32_t type;\n\t\tint32_t mode;\n\t\tint32_t submode;\n"
	      "\t\tint32_t status;\n\t\tuint32_t cpu;\n");
	for (uint32_t nr = 0; nr < LT_MAX_SYSCALL; nr++) {
		const char *name = n->used_sys[nr] ? syscall_name(machine, nr) : NULL;
		const struct lt_args *a = name ? lt_syscall_args(name) : NULL;
		char ev[96], fields[1024];
		size_t k = 0;

		if (!name)
			continue;
		fields[0] = 0;
		for (unsigned i = 0; a && i < a->n; i++)
			k += (size_t)snprintf(fields + k, sizeof(fields) - k, "\t\t%s %s;\n",
					      a->is_str[i] ? "string" : "uint64_t", a->name[i]);
		snprintf(ev, sizeof(ev), "syscall_entry_%s", name);
		event(f, LT_EV_SYSCALL + 2 * nr, ev, fields);
		snprintf(ev, sizeof(ev), "syscall_exit_%s", name);
		event(f, LT_EV_SYSCALL + 2 * nr + 1, ev, "\t\tint64_t ret;\n");
	}
	rc = ferror(f) ? -EIO : 0;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}
