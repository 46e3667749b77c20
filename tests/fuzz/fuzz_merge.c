/* SPDX-License-Identifier: MIT */
/* libFuzzer target: several tracefiles merged, in every dialect (the 2004 one included). The input is
 * [config][len0 len1 (2 bytes each, little endian)][cpu/0][cpu/1][cpu/2 = the rest]: config bit 0 is the
 * byte order, bits 1-2 the dialect (minor version 2, 5 or 10); control/facilities is good
 * (fuzz_trace.h). The merge must yield events in time order per tracefile, never crash or hang. */
#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned minors[] = { 2, 5, 10, 10 };
	struct ltt_reader_options opt = { .flags = LTT_READ_BUILTIN | LTT_READ_CHECK, .problem = fuzz_problem };
	const char *paths[1];
	uint64_t last[3] = { 0, 0, 0 };
	struct ltt_reader *r;
	struct ltt_event ev;
	size_t l0, l1;
	char err[512];
	unsigned minor;
	int be, ret;

	if (size < 5 || size > 3 * 32 * FUZZ_BS)
		return 0;
	be = data[0] & 1;
	minor = minors[(data[0] >> 1) & 3];
	l0 = data[1] | (size_t)data[2] << 8;
	l1 = data[3] | (size_t)data[4] << 8;
	data += 5;
	size -= 5;
	if (l0 > size)
		l0 = size;
	if (l1 > size - l0)
		l1 = size - l0;
	fuzz_trace_reset("merge");
	fuzz_trace_system(be, minor, 3);
	fuzz_trace_facilities(be, minor);
	fuzz_trace_write("cpu/0", data, l0);
	fuzz_trace_write("cpu/1", data + l0, l1);
	fuzz_trace_write("cpu/2", data + l0 + l1, size - l0 - l1);
	paths[0] = fuzz_dir;
	if (ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err)))
		abort();	/* the directory itself is always good */
	while ((ret = ltt_reader_next(r, &ev)) == 1) {
		int cpu = ev.tracefile->cpu;

		if (!ev.type || ev.size > FUZZ_BS)
			abort();
		if (cpu >= 0 && cpu < 3) {	/* times never decrease within a tracefile */
			if (ev.time_ns < last[cpu])
				abort();
			last[cpu] = ev.time_ns;
		}
	}
	if (ret < 0)
		abort();
	ltt_reader_close(r);
	return 0;
}
