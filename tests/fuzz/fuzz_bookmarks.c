/* SPDX-License-Identifier: MIT */
/* libFuzzer target: info/bookmarks.xml. The input is the bookmarks file of a small good trace
 * (fuzz_trace.h): malformed bookmarks are a problem of one line, never a failure to open, and every
 * bookmark kept has text and a time or cycle count; the trace's one event is still read. */
#include "fuzz_trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_reader_options opt = { .flags = LTT_READ_CHECK, .problem = fuzz_problem };
	const char *paths[1];
	const struct ltt_trace_info *ti;
	struct ltt_reader *r;
	char err[512];

	fuzz_trace_reset("bookmarks");
	fuzz_trace_write("info/bookmarks.xml", data, size);
	paths[0] = fuzz_dir;
	if (ltt_reader_open(&r, paths, 1, &opt, err, sizeof(err)))
		abort();	/* bookmarks never keep a trace from opening */
	ti = ltt_reader_trace(r, 0);
	for (unsigned i = 0; i < ti->nbookmarks; i++) {
		const struct ltt_bookmark *b = &ti->bookmarks[i];

		if (!b->text || (!b->has_time && !b->has_cycles))
			abort();
	}
	ltt_reader_close(r);
	if (fuzz_trace_read(0) != 1)
		abort();
	return 0;
}
