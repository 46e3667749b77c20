#!/bin/sh
# SPDX-License-Identifier: MIT
# Crash snapshots whatever handlers the program installs (issue 36, point 3; issue 37, point 2). A program
# that installs its own SIGSEGV handler after the trace started (as servers do) and faults: libltt's
# handler stays first, writes the crash snapshot with the program's events, then calls the program's
# handler with the real siginfo; what the handler does next is the program's: a re-raise dies by
# SIGSEGV, _exit(3) exits 3, abort() dies by SIGABRT, each with exactly one snapshot and no registry
# entry left. No "installed its own handler" line for it, nor for a program that installs nothing
# (before: a false one on every crash, libltt's own restore passing through its interposer). A program
# that installs its own SIGUSR2 handler is told so once, gets the signals sent to the process, and
# `ltt snapshot PID` still takes snapshots (libltt's thread).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_chain"
fprog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] && [ -x "$fprog" ] || { echo "skip: $prog not built"; exit 77; }
export LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 LTT_MODE=flight
export ASAN_OPTIONS="handle_segv=0:handle_abort=0:${ASAN_OPTIONS:-}" TSAN_OPTIONS="handle_segv=0:handle_abort=0:${TSAN_OPTIONS:-}"
ulimit -c 0
v() { echo "$1" | head -n 1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }

for case in "reraise 139" "exit 3" "abort 134"; do
	how=${case% *} want=${case#* }
	LTT_TRACE="$work/$how" "$prog" $how 20000 2> "$work/$how.err"
	check "$how: status" "$?" "$want"
	check "$how: stderr" "$(grep -v -e "^Aborted" -e "^Segmentation" "$work/$how.err")" "handler: SIGSEGV si_code=SEGV_ACCERR addr_ok=1"
	check "$how: snapshots" "$(ls "$work/$how" | grep snapshot)" "snapshot-0001"
	check "$how: registry entry" "$(reg_of "$work/$how")" ""
	out=$("$fprog" check "$work/$how/snapshot-0001")
	check "$how: problems" "$(v "$out" problems)" 0
	# the last tick (the program is not pinned: a migration leaves each CPU's ring its own history,
	# so the ticks held need not be contiguous)
	t0=$(v "$out" t0); last=${t0#*-}; last=${last%%:*}
	check "$how: the last tick" "$last" 19999
	[ -e "$work/$how/info/own-handlers" ] && { echo "$how: info/own-handlers written"; fail=1; }
done

# a program that installs no handler: no message at all on its crash
LTT_TRACE="$work/plain" "$fprog" segv 1000 2> "$work/plain.err"
check "plain segv: status" "$?" 139
check "plain segv: no own-handler line" "$(grep -c "own handler" "$work/plain.err")" 0
check "plain segv: registry entry" "$(reg_of "$work/plain")" ""

# its own SIGUSR2 handler: said once; kill -USR2 reaches it; ltt snapshot still works
LTT_TRACE="$work/u" "$prog" usr2 > "$work/u.out" 2> "$work/u.err" &
pid=$!
for i in $(seq 200); do [ -s "$work/u.out" ] && break; sleep 0.05; done
check "usr2: ltt snapshot" "$("$LTT" snapshot --timeout 20 $pid 2>&1 | head -n 1)" "$work/u/snapshot-0001"
kill -USR2 $pid
sleep 0.2
kill -TERM $pid
wait $pid
check "usr2: the program's handler" "$(tail -n 1 "$work/u.out")" "usr2=1"
check "usr2: said" "$(cat "$work/u.err")" "ltt: $work/u: SIGUSR2: the program installed its own handler: a signal sent to the process goes to it; \`ltt snapshot PID\` and \`ltt record\` still take snapshots (libltt's thread)"
check "usr2: registry entry" "$(reg_of "$work/u")" ""
exit $fail
