#!/bin/sh
# SPDX-License-Identifier: MIT
# A flight-mode process that exec()s another program keeps its pid and start time, and so its `ltt
# snapshot` registry entry (issue 28, point 2): before 26 Nov 2026 `ltt snapshot PID` then sent SIGUSR2
# to the new program, which died of it. Now it refuses with one line (the program is not the one that
# registered, or does not catch the signal) and the program lives on. Since libltt ends its recording
# before an exec (recorder/exec.c: the snapshot at exit taken then, the registry entry removed), it
# says the process does not record a flight trace. A program that installs its own
# handler of the snapshot signal after the start is said so (stderr, the trace) and `ltt snapshot` still
# works; its SIGSEGV handler is chained after the crash snapshot (tests/e2e/flight_chain.sh).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/trust_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
mkfifo "$work/in"
LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=4 LTT_TRACE="$work/t" "$prog" exec /bin/sleep 30 \
	< "$work/in" > "$work/out" &
pid=$!
exec 3> "$work/in"
for i in $(seq 100); do [ -s "$work/out" ] && break; sleep 0.1; done
check "before the exec: a snapshot" "$("$LTT" snapshot --timeout 20 $pid 2>&1 | head -n 1)" "$work/t/snapshot-0001"
echo go >&3
for i in $(seq 100); do [ "$(cat /proc/$pid/comm 2>/dev/null)" = sleep ] && break; sleep 0.1; done
check "the exec" "$(cat /proc/$pid/comm)" sleep
out=$("$LTT" snapshot --timeout 2 $pid 2>&1); rc=$?
check "after the exec: status" "$rc" 1
[ -d "$work/t/snapshot-0002" ] || { echo "no snapshot at the exec: $(ls "$work/t")"; fail=1; }
case "$out" in
*"does not record a flight trace"*) ;;	# libltt ended its recording at the exec (recorder/exec.c)
*"runs another program since it registered"*|*"does not handle signal 12"*) ;;
*) echo "after the exec: $out"; fail=1 ;;
esac
sleep 0.2
[ -d /proc/$pid ] && ! grep -q '^State:.*Z' /proc/$pid/status || { echo "ltt snapshot killed the exec()ed program"; fail=1; }
kill $pid 2>/dev/null; wait $pid 2>/dev/null
exec 3>&-
reg_forget "$work/t"

# a program that installs its own handlers of the snapshot signal and of SIGSEGV after the start: the
# snapshot signal's is said once on stderr and in TRACE/info/own-handlers, and `ltt snapshot` still
# takes its snapshot (libltt's thread, signalled alone); SIGSEGV's is chained after libltt's crash
# snapshot, nothing lost, nothing said (tests/e2e/flight_chain.sh)
LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=4 LTT_TRACE="$work/h" "$prog" handler > "$work/hout" 2> "$work/herr" &
pid=$!
for i in $(seq 100); do [ -s "$work/hout" ] && break; sleep 0.1; done
out=$("$LTT" snapshot --timeout 20 $pid 2>&1); rc=$?
check "own handler: snapshot status" "$rc" 0
check "own handler: snapshot" "$(echo "$out" | head -n 1)" "$work/h/snapshot-0001"
kill -9 $pid; wait $pid 2>/dev/null
reg_forget "$work/h"
said="SIGUSR2: the program installed its own handler: a signal sent to the process goes to it; \`ltt snapshot PID\` and \`ltt record\` still take snapshots (libltt's thread)"
check "own handler: stderr" "$(cat "$work/herr")" "ltt: $work/h: $said"
check "own handler: in the trace" "$(cat "$work/h/info/own-handlers" 2>&1)" "$said"
exit $fail
