#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt dump by block ranges (toolkit/par_dump.c): the windows' output is byte for byte the
# single-thread path's, stdout, stderr and exit status, with 2, 3 and 4 workers, on a synthetic trace
# made for the seams: 4 CPUs and a control tracefile writing events at the same times (every window is
# cut at a block_start of cpu/0, a time at which every CPU has events: equal times across tracefiles at
# each cut, two events of the same time in cpu/0, some across its block boundaries), and cpu/3 whose
# blocks start 5 cycles before the previous block ended (clock skew: the reader's clamp lifts their
# first events to the previous block's last time, which a window starting there must take over).
# A second trace has blocks the clamp lifts whole, after which a window must be done again from the
# block before its first. LTT_PAR_DEBUG=1 says what ran: every window written (and how many done
# again), or the window that fell back. A damaged trace
# (a bad trailer, an unknown event id in the middle) falls back to the reader after the windows
# before it, with the same warnings.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"

awk 'BEGIN {
	c = 1000
	for (i = 0; i < 12000; i++) {
		for (k = 0; k < 4; k++) {
			if (i % 7 == 3) printf "ev %d %d types.text \"w%d\" TEN\n", k, c, i
			else printf "ev %d %d types.empty\n", k, c
		}
		printf "ev 0 %d types.empty\n", c
		if (i % 400 == 399) printf "flush 3\nev 3 %d types.empty\n", c - 5
		if (i % 1000 == 500) printf "ev control/processes %d types.text \"ctl\" ZERO\n", c
		if (i % 2) c += 50
	}
}' > script
"$MK" -o t -c 4 -b 4096 -f "$G/types.xml" -s script || exit 1
check "events in the trace" "$("$LTT" dump --threads=1 t | wc -l)" 60042

# same ARGS...: --threads=1 against 2, 3, 4 workers: stdout, stderr and status identical
same() {
	"$LTT" dump --threads=1 "$@" > one 2> one.err; s1=$?
	[ -s one ] || { echo "ltt dump $*: no output"; fail=1; return; }
	for n in 2 3 4; do
		"$LTT" dump --threads=$n "$@" > par 2> par.err; s2=$?
		check "ltt dump --threads=$n $*: status" "$s2" "$s1"
		cmp -s one par || { echo "ltt dump --threads=$n $*: output differs ($(cmp one par))"; fail=1; }
		cmp -s one.err par.err || { echo "ltt dump --threads=$n $*: stderr differs"; diff one.err par.err; fail=1; }
	done
}
same t
same --format=json t
same --all t
same --all --format=json t
same --time=rel t
same --event types.text t
same --cpu 1 --cpu 3 --format=json t
same --facility types --all t

# the windows ran, all of them: N windows, cut at block_starts of cpu/0, every event written
LTT_PAR_DEBUG=1 "$LTT" dump --threads=2 --format=json t 2> dbg > out
check "2 workers" "$(sed 's/, cut at.*//' dbg)" "ltt dump: 8 windows in 2 workers (0 done again)"
check "2 workers: written" "$(sed 's/.*; //' dbg)" "60042 events written, result 0"
LTT_PAR_DEBUG=1 "$LTT" dump --threads=4 --all t 2> dbg4 > /dev/null
check "4 workers" "$(sed 's/, cut at.*//' dbg4)" "ltt dump: 16 windows in 4 workers (0 done again)"
check "4 workers: written" "$(sed 's/.*; //' dbg4)" "60277 events written, result 0"
# at each cut time every CPU has events (equal times across tracefiles at the windows' seams)
for cut in $(sed 's/.*cut at \([0-9 ]*\);.*/\1/' dbg4); do
	cpus=$(grep "\"ts_ns\":$cut," out | sed 's/.*"cpu":"\([^"]*\)".*/\1/' | sort -u | tr '\n' ' ')
	check "CPUs with events at the cut $cut" "$cpus" "cpu/0 cpu/1 cpu/2 cpu/3 "
done

# blocks of one event whose time the clamp lifts past their own block_end (cpu/1, every 40 events):
# the state after such a block is not what its anchors say (ltt_range_seam_guess), nor what decoding
# it alone gives, so a window starting after one is done again from the state the previous window
# ended with
awk 'BEGIN {
	c = 1000
	for (i = 0; i < 6000; i++) {
		printf "ev 0 %d types.empty\nev 0 %d types.empty\nev 1 %d types.empty\n", c, c, c
		if (i % 40 == 39) printf "flush 1\nev 1 %d types.empty\nflush 1\n", c - 5
		c += 50
	}
}' > lifted
"$MK" -o g -c 2 -b 4096 -f "$G/types.xml" -s lifted || exit 1
same --all --format=json g
same g
LTT_PAR_DEBUG=1 "$LTT" dump --threads=2 --all g 2> dbgg > /dev/null
check "lifted blocks: 2 workers" "$(sed 's/, cut at.*//' dbgg)" "ltt dump: 8 windows in 2 workers (4 done again)"
check "lifted blocks: written" "$(sed 's/.*; //' dbgg)" "18789 events written, result 0"

# damaged blocks in the middle: a window finds them, the reader reads on from the events written
cp -r t d
printf '\377\377\377\177' | dd of=d/cpu/1 bs=1 seek=$((16 * 4096 - 4)) conv=notrunc 2> /dev/null
printf '\377\377' | dd of=d/cpu/2 bs=1 seek=$((19 * 4096 + 200)) conv=notrunc 2> /dev/null
same d
same --format=json d
check "warnings" "$("$LTT" dump --threads=2 d 2>&1 > /dev/null)" \
"ltt dump: d/cpu/1: offset 61440: block 15: trailer 2147483647 puts block_end at 2147483647, outside [26, 4066]; block skipped
ltt dump: d/cpu/1: offset 65536: block 16: block_id jumps from 15 to 16: 1 blocks lost for an unknown reason
ltt dump: d/cpu/2: offset 78024: unknown event id 65535; rest of block skipped"
# window 5 (from the 5th cut) holds the bad trailer: windows 0-4 were written whole, and window 5 as
# far as it had streamed when it met the block (depends on timing): the reader skipped that many
LTT_PAR_DEBUG=1 "$LTT" dump --threads=2 d 2>&1 > /dev/null | head -n 1 > dbgd
check "damaged: fell back" "$(sed 's/.*; \(window [0-9]* fell back\).*/\1/' dbgd)" "window 5 fell back"
cut5=$(sed 's/.*cut at \([0-9 ]*\);.*/\1/' dbgd | cut -d' ' -f5)
before=$("$LTT" dump --threads=1 --format=json d 2> /dev/null | sed 's/.*"ts_ns":\([0-9]*\),.*/\1/' |
	awk -v c="$cut5" '$1 "" < c "" { n++ } END { print n }')
written=$(sed 's/.*fell back, \([0-9]*\) events.*/\1/' dbgd)
[ "$before" -gt 30000 ] && [ "$written" -ge "$before" ] && [ "$written" -lt 60042 ] ||
	{ echo "damaged: $written events written, $before before window 5"; fail=1; }

[ "$fail" = 0 ] || exit 1
echo "ok: 2, 3 and 4 workers give the single-thread output (60042 events, 4 CPUs, equal times at the cuts, clamped blocks, filters; damaged trace falls back after window 4)"
