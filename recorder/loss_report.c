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
		if (rg->flags & LTT_REGION_OVERWRITE) { /* flight mode: only the control rings fill */
			w = snprintf(
				buf + *n, len - *n,
				"%s%" PRIu64 " buffer_full (the control rings, which a flight "
				"recorder does not overwrite, were full of thread and process records: LTT_BLOCKS / "
				"ltt record --blocks larger would have kept them)",
				*n ? "; " : "", count);
			break;
		}
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

/* The line: "lost PATH: N events lost[ where]: causes", to ltt record or on stderr. */
static void say(const char *path, const struct ltt_region *rg, const struct ltt_losses_said *sp,
		const char *where)
{
	struct ltt_losses_said s = *sp;
	uint64_t total = 0;
	char causes[1536], line[PATH_MAX + 1700];
	size_t n = 0;
	int w;

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
	w = snprintf(line, sizeof(line), "lost %s: %" PRIu64 " events lost%s: %s\n", path,
		     total + s.unwritten + s.failed, where, causes);
	if (w <= 0)
		return;
	if ((size_t)w >= sizeof(line))
		line[sizeof(line) - 2] = '\n', line[sizeof(line) - 1] = 0;
	if (ltt_record_report(line) == 1)
		return;	/* ltt record says it */
	fprintf(stderr, "ltt: %s", line + 5);
}

void ltt_loss_report(const char *path, const struct ltt_region *rg)
{
	struct ltt_losses_said s;

	ltt_consumer_losses(&s);
	say(path, rg, &s, "");
}

/* Flight mode: the drops the kept history reports (the events_lost records of every complete block
 * the rings hold, and the drops not yet reported in a block), what the snapshot at exit counts. Drops
 * reported in blocks already overwritten went with them (each earlier snapshot counted its own). */
void ltt_loss_report_kept(const char *path, const struct ltt_region *rg)
{
	struct ltt_losses_said s;

	memset(&s, 0, sizeof(s));
	for (unsigned i = 0; i < rg->nrings; i++) {
		const struct ltt_ring *r = &rg->rings[i];
		uint64_t top = ltt_ring_head_seq(r) + 1, kept = 0;

		if (!ltt_ring_block_opened(r, top - 1))
			top--; /* the head block not opened: its slot still holds the block before */
		/* the last `blocks` blocks opened, one per slot (older ones were overwritten) */
		for (uint64_t seq = top; seq > 0 && kept < rg->blocks; kept++) {
			seq--;
			if (ltt_ring_block_complete(r, seq))
				ltt_block_drops(ltt_ring_block(r, seq), rg->block_size, s.lost);
		}
		for (unsigned c = 0; c < LTT_LOST_CAUSES; c++)
			s.lost[c] += ltt_read(&r->lost[c]);
	}
	say(path, rg, &s,
	    " in the history the rings kept at stop (what a snapshot then holds; each snapshot "
	    "counts its own: ltt stats)");
}
