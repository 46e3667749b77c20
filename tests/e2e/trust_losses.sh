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

# a recording that never stopped: killed while it waits for a line on stdin (a pipe that stays open
# and silent). Not by an exec: since recorder/exec.c, libltt stops its recording cleanly before one.
mkfifo "$work/k.in"
LTT_BLOCK_SIZE=4096 LTT_TRACE="$work/k" "$prog" exec /bin/true > "$work/k.out" < "$work/k.in" &
pid=$!
exec 3> "$work/k.in"	# the writer end, kept open and silent until the kill
for i in $(seq 100); do [ -s "$work/k.out" ] && break; sleep 0.1; done; sleep 1	# a flush (LTT_FLUSH_MS) wrote the blocks
kill -9 $pid; wait $pid 2>/dev/null
exec 3>&-
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

# (d) two events_lost records of 2^63: not "0 lost" (saturated), each flagged as damaged
printf 'ev 0 2000 types.empty\nlost 0 2500 9223372036854775808 0\nlost 0 2600 9223372036854775808 0\nev 0 3000 types.empty\n' > wrap.script
"$MK" -o "$work/wrap" -c 1 -b 4096 -f "$G/types.xml" -s wrap.script || exit 1
out=$("$LTT" check "$work/wrap" 2>&1); rc=$?
check "wrap: check status" "$rc" 1
check "wrap: check" "$out" "ltt check: $work/wrap/cpu/0: offset 32: events_lost count 9223372036854775808 is above what the recorder can write (2^56): a damaged record
ltt check: $work/wrap/cpu/0: offset 47: events_lost count 9223372036854775808 is above what the recorder can write (2^56): a damaged record"
check "wrap: stats lost" "$("$LTT" stats "$work/wrap" 2>/dev/null | sed -n 's/^  lost *\([0-9]*\) events.*/\1/p')" 18446744073709551615

# (c) few descriptors at start: either no trace (one line, the program runs untraced) or a trace that
# decodes whole; before, some limits gave a trace without eventdefs/ that nothing could decode
for n in 8 9 10 11 12 13 14 15 16 17 18 19 20 22 24; do
	t="$work/fd$n"
	err=$(sh -c "ulimit -n $n; LTT_TRACE='$t' exec '$prog' exits 1 10" 2>&1 >/dev/null); rc=$?
	check "ulimit -n $n: status" "$rc" 0
	if [ -e "$t" ]; then
		out=$("$LTT" check "$t" 2>&1) || { echo "ulimit -n $n: a trace that does not check: $out"; fail=1; }
		check "ulimit -n $n: ticks" "$("$LTT" dump --event flighttest.tick "$t" 2>&1 | wc -l)" 10
	else
		check "ulimit -n $n: one line" "$(echo "$err" | wc -l)" 1
		case "$err" in *"not tracing"*) ;; *) echo "ulimit -n $n: $err"; fail=1 ;; esac
	fi
done

# (a) a disk nearly full at start: the space of the final accounting cannot be kept
mkdir "$work/small"
if mount -t tmpfs -o size=64k tmpfs "$work/small" 2>/dev/null; then
	dd if=/dev/zero of="$work/small/fill" bs=4k count=12 2>/dev/null
	err=$(LTT_TRACE="$work/small/t" "$prog" exits 1 1000 2>&1); rc=$?
	check "nearly full disk: status" "$rc" 0
	case "$err" in *"info/write-losses"*"not tracing") ;; *) echo "nearly full disk: $err"; fail=1 ;; esac
	check "nearly full disk: one line" "$(echo "$err" | wc -l)" 1
	[ -e "$work/small/t" ] && { echo "nearly full disk: a trace was left: $(ls -R "$work/small/t")"; fail=1; }
	umount "$work/small"
else
	echo "nearly full disk: not tested (cannot mount a tmpfs here)"
fi
exit $fail
