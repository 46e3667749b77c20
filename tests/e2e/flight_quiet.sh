#!/bin/sh
# SPDX-License-Identifier: MIT
# A snapshot never touches the program's threads (issue 36, point 2): `ltt snapshot PID` and SIGUSR2 to
# `ltt record` go to libltt's own thread (`ltt-flight`, named in the registry entry), which takes the
# snapshot; the program's main thread, in a 1 s nanosleep when the snapshot is asked for, sleeps its
# whole second and never sees EINTR (before: the signal's handler ran the snapshot on that thread and
# the sleep returned early with EINTR).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_quiet"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
export LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8
wait_ready() { for i in $(seq 200); do [ -s "$1" ] && break; sleep 0.05; done; }

# by `ltt snapshot PID`
LTT_MODE=flight LTT_TRACE="$work/a" "$prog" sleep "$work/a/snapshot-0001" > "$work/a.out" &
pid=$!
wait_ready "$work/a.out"
reg=$(reg_of "$work/a")
tid=$(sed -n 's/^thread //p' "$reg")
check "the registry names the flight thread" "$(cat /proc/$pid/task/$tid/comm 2>&1)" ltt-flight
sleep 0.3
check "ltt snapshot" "$("$LTT" snapshot --timeout 20 $pid 2>&1 | head -n 1)" "$work/a/snapshot-0001"
wait $pid
out=$(tail -n 1 "$work/a.out")
case "$out" in
"sleeps="*" eintr=0 short=0") ;;
*) echo "ltt snapshot: the program's sleeps were cut: $out"; fail=1 ;;
esac
[ -z "$(reg_of "$work/a")" ] || { echo "registry entry left: $(reg_of "$work/a")"; fail=1; }
"$LTT" check "$work/a/snapshot-0001" > /dev/null || { echo "snapshot-0001 does not check"; fail=1; }

# by SIGUSR2 to `ltt record`
"$LTT" record --mode flight -o "$work/b" -- "$prog" sleep "$work/b/snapshot-0001" > "$work/b.out" 2> "$work/b.err" &
rpid=$!
wait_ready "$work/b.out"
sleep 0.3
kill -USR2 $rpid
wait $rpid || { echo "ltt record: status $?"; cat "$work/b.err"; fail=1; }
out=$(tail -n 1 "$work/b.out")
case "$out" in
"sleeps="*" eintr=0 short=0") ;;
*) echo "SIGUSR2 to ltt record: the program's sleeps were cut: $out"; fail=1 ;;
esac
[ -d "$work/b/snapshot-0001" ] || { echo "no snapshot by SIGUSR2 to ltt record"; cat "$work/b.err"; fail=1; }
exit $fail
