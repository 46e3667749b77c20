#!/bin/sh
# SPDX-License-Identifier: MIT
# Flight snapshots report dropped events (events_lost, doc/format.md section 7): too-big events still
# unreported in the ring are in every snapshot taken before a block reports them, and counted once
# after (no snapshot counts a drop twice); a full control ring (LTT_BLOCKS=2, 1000 threads) reports its
# buffer_full drops exactly: thread_start + thread_exit recorded + dropped = 2 x threads. At stop libltt
# says what the kept history lost in one line (on stderr, or through ltt record), as discard mode does.
set -u
prog="$BUILD/tests/progs/flight_lost"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-lost-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cause() { sed -n "s/^  lost .*[(, ]$1 \([0-9]*\)[,)].*/\1/p"; }

out=$("$prog" "$tmp/big" big 2> "$tmp/big.err") || fail "big: $out"
for n in 1 2 3; do
	s="$tmp/big/snapshot-000$n"
	"$LTT" check "$s" >/dev/null || fail "ltt check $s"
	st=$("$LTT" stats "$s") || fail "ltt stats $s"
	[ "$(echo "$st" | cause too_big)" = 2 ] || fail "snapshot $n: $(echo "$st" | grep '^  lost')"
	[ "$(echo "$st" | cause buffer_full)" = 0 ] || fail "snapshot $n: $(echo "$st" | grep '^  lost')"
done

N=1000
out=$("$prog" "$tmp/th" threads $N 2> "$tmp/th.err") || fail "threads: $out"
s="$tmp/th/snapshot-0001"
"$LTT" check "$s" >/dev/null || fail "ltt check $s"
st=$("$LTT" stats "$s") || fail "ltt stats $s"
lost=$(echo "$st" | cause buffer_full)
ts=$("$LTT" dump --event core.thread_start "$s" | wc -l)
te=$("$LTT" dump --event core.thread_exit "$s" | wc -l)
[ "$lost" -gt 0 ] || fail "no buffer_full drops reported (control ring not full?)"
[ $((ts + te + lost)) = $((2 * N)) ] || fail "thread_start $ts + thread_exit $te + lost $lost != $((2 * N))"
# the line said at stop (issue 34: as discard mode says it), the counts the kept history reports
said="events lost in the history the rings kept at stop (what a snapshot then holds; each snapshot counts its own: ltt stats)"
grep -qF "ltt: $tmp/big: 2 $said: 2 too_big (events larger than a block of 4 KiB" "$tmp/big.err" ||
	fail "big: no loss line at stop: $(cat "$tmp/big.err")"
grep -qF "ltt: $tmp/th: $lost $said: $lost buffer_full (the control rings" "$tmp/th.err" ||
	fail "threads: no loss line at stop ($lost): $(cat "$tmp/th.err")"
# under ltt record, the line goes to ltt record (LTT_RECORD_REPORT), which says it after the snapshots
: > "$tmp/report"
LTT_RECORD_REPORT="$tmp/report" "$prog" "$tmp/r" big > /dev/null 2> "$tmp/r.err" || fail "report: $(cat "$tmp/r.err")"
grep -qF "lost $tmp/r: 2 $said: 2 too_big" "$tmp/report" || fail "report: no loss line: $(cat "$tmp/report")"
! grep -q "events lost" "$tmp/r.err" || fail "report: said twice: $(cat "$tmp/r.err")"
echo "ok: too_big 2 in 3 snapshots; threads $ts+$te recorded, $lost dropped; said at stop"
