#!/bin/sh
# SPDX-License-Identifier: MIT
# Losses that used to leave no record (issue 28, point 4): (b) six threads calling exit() at once while
# libltt stops (before 26 Nov 2026 the process ended during the stop: 41-91 % of 450,000 events kept
# and `ltt check` said ok): every tick is in the trace, or counted lost; a recording that never stopped
# (kill -9: info/write-losses left empty) makes `ltt check` and `ltt stats` say "recording did not stop:
# its end may be missing" and exit 1, and `ltt pack` writes it into the manifest.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
prog="$BUILD/tests/progs/trust_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }

# (b) concurrent exit(): five runs, each exact
for i in 1 2 3 4 5; do
	LTT_TRACE="$work/ex$i" "$prog" exits 6 75000
	rc=$?
	check "exits $i: status" "$rc" 0
	ticks=$("$LTT" dump --event flighttest.tick "$work/ex$i" | wc -l)
	lost=$("$LTT" check "$work/ex$i" | sed -n 's/.* \([0-9]*\) lost.*/\1/p')
	check "exits $i: ticks + lost" "$((ticks + ${lost:-0}))" 450000
done

# a recording that never stopped
LTT_BLOCK_SIZE=4096 LTT_TRACE="$work/k" "$prog" exec /bin/sleep 30 > "$work/k.out" < /dev/zero &
pid=$!
for i in $(seq 100); do [ -s "$work/k.out" ] && break; sleep 0.1; done; sleep 1	# a flush (LTT_FLUSH_MS) wrote the blocks
kill -9 $pid; wait $pid 2>/dev/null
check "killed trace: info/write-losses empty" "$(wc -c < "$work/k/info/write-losses")" 0
out=$("$LTT" check "$work/k" 2>&1); rc=$?
check "check of a killed recording: status" "$rc" 1
line="$work/k: recording did not stop: its end may be missing (info/write-losses is empty: the recording process was killed, or still records)"
check "check of a killed recording" "$(echo "$out" | grep -c -x -F "ltt check: $line")" 1
out=$("$LTT" stats "$work/k" 2>&1 >/dev/null); rc=$?
check "stats of a killed recording: status" "$rc" 1
check "stats of a killed recording" "$(echo "$out" | grep -c -x -F "ltt stats: $line")" 1
"$LTT" pack "$work/k" -o "$work/k.tar.gz" || { echo "ltt pack of the killed recording failed"; fail=1; }
tar xzf "$work/k.tar.gz" -O --wildcards '*info/manifest.xml' | grep -q 'recording="recording did not stop: its end may be missing"' ||
	{ echo "the manifest does not say the recording did not stop"; fail=1; }
# a trace that stopped says nothing of it
out=$("$LTT" check "$work/ex1" 2>&1); check "check of a stopped recording: status" "$?" 0
exit $fail
