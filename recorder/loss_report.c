// SPDX-License-Identifier: MIT
/* recorder/loss_report.c: the line said when a discard-mode trace stops having lost events (issue 34,
 * doc/recorder.md "Lost events"): how many, by cause, and the setting that would have kept them. The
 * counts are the consumer's (ltt_consumer_losses: the events_lost records of every block it wrote,
 * the events of the blocks it could not write), so they are the trace's own: `ltt stats` sums the same
 * records. Said once per trace: to `ltt record` through LTT_RECORD_REPORT (it prints the line after
 * "trace written to"), else on stderr. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "recorder.h"

/* Appends to buf (at *n) what cause c means and what would have kept its events. */
static void cause_text(char *buf, size_t len, size_t *n, unsigned c, uint64_t count, const struct ltt_region *rg)
{
	static const char *const names[LTT_LOST_CAUSES] = { "buffer_full", "too_big", "nested", "torn",
							    "internal", "kernel" };
	uint64_t ring = (uint64_t)rg->block_size * rg->blocks;
	int w = 0;

	if (*n >= len)
		return;
	switch (c) {
	case LTT_LOST_CAUSE_BUFFER_FULL:
		w = snprintf(buf + *n, len - *n, "%s%" PRIu64 " buffer_full (the program wrote faster than the "
			     "consumer could empty the rings, %" PRIu32 " rings of %" PRIu64 " KiB: a larger LTT_BUFFER_SIZE, "
			     "or LTT_BLOCKS / ltt record --blocks, would have kept them)", *n ? "; " : "", count,
			     rg->ncpu, ring >> 10);
		break;
	case LTT_LOST_CAUSE_TOO_BIG:
		w = snprintf(buf + *n, len - *n, "%s%" PRIu64 " too_big (events larger than a block of %" PRIu32
			     " KiB: LTT_BLOCK_SIZE / ltt record --block-size larger would have kept them)",
			     *n ? "; " : "", count, rg->block_size >> 10);
		break;
	case LTT_LOST_CAUSE_NESTED:
		w = snprintf(buf + *n, len - *n, "%s%" PRIu64 " nested (writers nested too deep on one CPU, signal "
			     "handlers interrupting writers: no setting keeps them)", *n ? "; " : "", count);
		break;
	case LTT_LOST_CAUSE_KERNEL:
		w = snprintf(buf + *n, len - *n, "%s%" PRIu64 " kernel (perf's ring overflowed before libltt drained "
			     "it: a larger LTT_KERNEL_BUFFER / ltt record --kernel-buffer would have kept them)",
			     *n ? "; " : "", count);
		break;
	default:
		w = snprintf(buf + *n, len - *n, "%s%" PRIu64 " %s (a recorder failure: no setting keeps them)",
			     *n ? "; " : "", count, names[c]);
		break;
	}
	if (w > 0)
		*n += (size_t)w;
}

void ltt_loss_report(const char *path, const struct ltt_region *rg)
{
	struct ltt_losses_said s;
	uint64_t total = 0;
	char causes[1536], line[PATH_MAX + 1700];
	size_t n = 0;
	int w;

	ltt_consumer_losses(&s);
	for (unsigned c = 0; c < LTT_LOST_CAUSES; c++)
		total += s.lost[c];
	if (!total && !s.unwritten && !s.failed)
		return;
	causes[0] = 0;
	for (unsigned c = 0; c < LTT_LOST_CAUSES; c++)
		if (s.lost[c])
			cause_text(causes, sizeof(causes), &n, c, s.lost[c], rg);
	if (s.unwritten && n < sizeof(causes)) {
		w = snprintf(causes + n, sizeof(causes) - n, "%s%" PRIu64 " in blocks their writers never finished "
			     "(a thread stopped mid-event at exit)", n ? "; " : "", s.unwritten);
		n += w > 0 ? (size_t)w : 0;
	}
	if (s.failed && n < sizeof(causes)) {
		w = snprintf(causes + n, sizeof(causes) - n, "%s%" PRIu64 " in blocks the disk refused (see "
			     "info/write-losses: free space would have kept them)", n ? "; " : "", s.failed);
		n += w > 0 ? (size_t)w : 0;
	}
	w = snprintf(line, sizeof(line), "lost %s: %" PRIu64 " events lost: %s\n", path,
		     total + s.unwritten + s.failed, causes);
	if (w <= 0)
		return;
	if ((size_t)w >= sizeof(line))
		line[sizeof(line) - 2] = '\n', line[sizeof(line) - 1] = 0;
	if (ltt_record_report(line) == 1)
		return;	/* ltt record says it */
	fprintf(stderr, "ltt: %s", line + 5);
}
