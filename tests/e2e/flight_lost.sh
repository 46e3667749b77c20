#!/bin/sh
# SPDX-License-Identifier: MIT
# Flight snapshots report dropped events (events_lost, doc/format.md section 7): too-big events still
# unreported in the ring are in every snapshot taken before a block reports them, and counted once
# after (no snapshot counts a drop twice); a full control ring (LTT_BLOCKS=2, 1000 threads) reports its
# buffer_full drops exactly: thread_start + thread_exit recorded + dropped = 2 x threads.
set -u
prog="$BUILD/tests/progs/flight_lost"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-lost-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cause() { sed -n "s/^  lost .*[(, ]$1 \([0-9]*\)[,)].*/\1/p"; }

out=$("$prog" "$tmp/big" big) || fail "big: $out"
for n in 1 2 3; do
	s="$tmp/big/snapshot-000$n"
	"$LTT" check "$s" >/dev/null || fail "ltt check $s"
	st=$("$LTT" stats "$s") || fail "ltt stats $s"
	[ "$(echo "$st" | cause too_big)" = 2 ] || fail "snapshot $n: $(echo "$st" | grep '^  lost')"
	[ "$(echo "$st" | cause buffer_full)" = 0 ] || fail "snapshot $n: $(echo "$st" | grep '^  lost')"
done

N=1000
out=$("$prog" "$tmp/th" threads $N) || fail "threads: $out"
s="$tmp/th/snapshot-0001"
"$LTT" check "$s" >/dev/null || fail "ltt check $s"
st=$("$LTT" stats "$s") || fail "ltt stats $s"
lost=$(echo "$st" | cause buffer_full)
ts=$("$LTT" dump --event core.thread_start "$s" | wc -l)
te=$("$LTT" dump --event core.thread_exit "$s" | wc -l)
[ "$lost" -gt 0 ] || fail "no buffer_full drops reported (control ring not full?)"
[ $((ts + te + lost)) = $((2 * N)) ] || fail "thread_start $ts + thread_exit $te + lost $lost != $((2 * N))"
echo "ok: too_big 2 in 3 snapshots; threads $ts+$te recorded, $lost dropped"
