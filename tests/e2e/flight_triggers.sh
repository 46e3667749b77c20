#!/bin/sh
# SPDX-License-Identifier: MIT
# Snapshot triggers for unmodified programs (issue 36, point 5): a duration rule of LTT_SNAPSHOT_ON
# ("syscall:clock_nanosleep>200ms", kernel system calls recorded) fires on the one slow call of a known
# program (50 calls of 1 ms, one of 300 ms, 50 of 1 ms) and on no other: one snapshot, named for it with
# its duration, holding the ticks before it; so does "region:work>200ms" on the one slow region; a rule naming no event is one line; a bad duration rule
# or an unknown system call is one line and the program runs untraced; LTT_SNAPSHOT_KEEP=2 is applied
# as snapshots are written (four by `ltt snapshot`: two directories after each from the second on);
# `ltt snapshot` takes `ltt record`'s pid and prints a one-line summary of what the snapshot holds.
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_quiet"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
export LTT_MODE=flight LTT_BLOCK_SIZE=65536 LTT_BLOCKS=8

if [ "$(id -u)" = 0 ] || [ "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)" -le 1 ] 2>/dev/null; then
	LTT_KERNEL=syscalls LTT_SNAPSHOT_AT_EXIT=0 LTT_SNAPSHOT_ON='syscall:clock_nanosleep>200ms,nosuch.event' \
		LTT_TRACE="$work/d" "$prog" slow 300 2> "$work/d.err"
	check "duration: status" "$?" 0
	check "duration: the rule naming nothing" "$(cat "$work/d.err")" \
		"ltt: LTT_SNAPSHOT_ON: rule 'nosuch.event' matches no event of the registered facilities"
	check "duration: snapshots" "$(ls "$work/d" | grep snapshot)" snapshot-0001
	trig=$(sed -n 's/.*ltt_trigger="\([^"]*\)".*/\1/p' "$work/d/snapshot-0001/info/system.xml")
	case "$trig" in
	"syscall:clock_nanosleep>200ms (took 0."[3-9]*" s, tid "*")") ;;
	*) echo "duration: trigger '$trig'"; fail=1 ;;
	esac
	n=$("$LTT" dump --event flighttest.tick "$work/d/snapshot-0001" | sed -n 's/.* seq = \([0-9]*\) .*/\1/p' |
		awk '$1 < 50' | wc -l)
	check "duration: the ticks before the slow call" "$n" 50
	"$LTT" check "$work/d/snapshot-0001" > /dev/null || { echo "duration: snapshot does not check"; fail=1; }
else
	echo "note: kernel events not available to this user: the duration trigger is not tested"
fi

# a region rule: the one 300 ms "work" region among 100 of 1 ms (the enclosing "main" region, 2.6 s,
# has another label): one snapshot, named for it
LTT_SNAPSHOT_AT_EXIT=0 LTT_SNAPSHOT_ON='region:work>200ms' LTT_TRACE="$work/g" "$prog" regions 300
check "region: status" "$?" 0
check "region: snapshots" "$(ls "$work/g" | grep snapshot)" snapshot-0001
trig=$(sed -n 's/.*ltt_trigger="\([^"]*\)".*/\1/p' "$work/g/snapshot-0001/info/system.xml")
case "$trig" in
"region:work>200ms (took 0."[3-9]*" s, tid "*")") ;;
*) echo "region: trigger '$trig'"; fail=1 ;;
esac
out=$(LTT_SNAPSHOT_ON='region:>1s' LTT_TRACE="$work/b3" "$prog" slow 1 2>&1)
check "bad region rule" "$out" "ltt: LTT_SNAPSHOT_ON='region:>1s': a region's label of 1 to 47 characters, or *; not tracing"

# bad rules: one line, untraced
out=$(LTT_SNAPSHOT_ON='syscall:nosuchcall>1s' LTT_TRACE="$work/b1" "$prog" slow 1 2>&1)
check "unknown system call" "$out" "ltt: LTT_SNAPSHOT_ON='syscall:nosuchcall>1s': 'nosuchcall' is not a system call of $(uname -m); not tracing"
out=$(LTT_SNAPSHOT_ON='syscall:read>fast' LTT_TRACE="$work/b2" "$prog" slow 1 2>&1)
check "bad duration" "$out" "ltt: LTT_SNAPSHOT_ON='syscall:read>fast': not syscall:NAME>DURATION (a system call or *, then a duration with ns, us, ms or s: syscall:read>100ms); not tracing"
[ -e "$work/b1" ] || [ -e "$work/b2" ] && { echo "a trace made for a bad rule"; fail=1; }

# LTT_SNAPSHOT_KEEP=2 as snapshots are written
LTT_SNAPSHOT_KEEP=2 LTT_SNAPSHOT_AT_EXIT=0 LTT_TRACE="$work/k" "$prog" latency 30 > "$work/k.out" &
pid=$!
for i in $(seq 200); do [ -s "$work/k.out" ] && break; sleep 0.05; done
for n in 1 2 3 4; do
	check "keep: snapshot $n" "$("$LTT" snapshot --timeout 20 $pid 2>&1 | head -n 1)" "$work/k/snapshot-000$n"
	want=$n; [ $n -gt 2 ] && want=2
	# the oldest goes right after the new one is renamed into place
	for i in $(seq 100); do [ "$(ls "$work/k" | grep -c '^snapshot-')" = $want ] && break; sleep 0.05; done
	check "keep: after snapshot $n" "$(ls "$work/k" | grep -c '^snapshot-')" "$want"
done
check "keep: the two newest" "$(ls "$work/k" | grep '^snapshot-' | tr '\n' ' ')" "snapshot-0003 snapshot-0004 "
kill -9 $pid; wait $pid 2>/dev/null
reg_forget_pid $pid

# `ltt snapshot` given `ltt record`'s pid: the program it runs; a one-line summary on stderr
"$LTT" record --mode flight -o "$work/r" -- "$prog" latency 30 > "$work/r.out" 2> "$work/r.err" &
rpid=$!
for i in $(seq 200); do [ -s "$work/r.out" ] && break; sleep 0.05; done
"$LTT" snapshot --timeout 20 $rpid > "$work/s.out" 2> "$work/s.err"
check "record pid: status" "$?" 0
check "record pid: directory" "$(cat "$work/s.out")" "$work/r/snapshot-0001"
case "$(cat "$work/s.err")" in
"ltt snapshot: $work/r/snapshot-0001: "*" s of history ("*" .. "*"), "*" events, 0 lost, 0 overwritten, "*" MiB") ;;
*) echo "record pid: summary: $(cat "$work/s.err")"; fail=1 ;;
esac
kill -TERM $rpid; wait $rpid
exit $fail
