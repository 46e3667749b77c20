#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt snapshot PID|TRACE (doc/flight-recorder.md "Taking a snapshot") and ltt record forwarding
# signals: a snapshot by pid, by trace directory, of a program run by ltt record (kill -USR2 to ltt
# record reaches the program; SIGTERM too, which ends it cleanly), and the errors: a process that
# records in discard mode, one that does not exist, a directory that is not a flight trace.
set -u
prog="$BUILD/tests/progs/select_flight"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d /tmp/ltt-e2e-select-snapshot-XXXXXX)
pids=
trap 'for p in $pids; do kill -9 $p 2>/dev/null; done; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
reg=/tmp/ltt-$(id -u)
# wait_for FILE: until it exists (10 s at most)
wait_for() {
	i=0
	while [ ! -e "$1" ]; do
		i=$((i + 1))
		[ $i -le 1000 ] || fail "$1 never appeared"
		sleep 0.01
	done
}
# wait_registry PID TRACE: until /tmp/ltt-UID/flight-PID names TRACE. A file of that name may be
# there already: left by a process of the same pid that was killed (pid_max is 32768 on many
# machines, and killed processes never remove theirs); the new process replaces it atomically.
wait_registry() {
	i=0
	while [ "$(head -1 "$reg/flight-$1" 2>/dev/null)" != "$2" ]; do
		i=$((i + 1))
		[ $i -le 1000 ] || fail "$reg/flight-$1 never named $2"
		sleep 0.01
	done
}

# by pid, then by trace directory
LTT_TRACE="$tmp/f" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0 "$prog" run 30000 &
p=$!
pids="$pids $p"
wait_registry "$p" "$tmp/f"
out=$("$LTT" snapshot "$p") || fail "by pid: $out"
[ "$out" = "$tmp/f/snapshot-0001" ] || fail "by pid printed '$out'"
[ "$("$LTT" dump --event seltest.b "$out" | head -1 | cut -d' ' -f1)" = "seltest.b:" ] || fail "by pid: no events"
out=$("$LTT" snapshot "$tmp/f") || fail "by dir: $out"
[ "$out" = "$tmp/f/snapshot-0002" ] || fail "by dir printed '$out'"
"$LTT" check "$out" > /dev/null || fail "snapshot 2 does not check"
kill -TERM "$p"
wait "$p" || fail "the program did not end cleanly on SIGTERM"
[ -e "$reg/flight-$p" ] && fail "registry file left after stop"
out=$("$LTT" snapshot "$tmp/f" 2>&1) && fail "a stopped trace: $out"
[ "$out" = "ltt snapshot: $tmp/f: process $p no longer records it" ] || fail "stopped: '$out'"

# under ltt record: kill -USR2 to ltt record reaches the program, and so does SIGTERM
"$LTT" record --mode flight -o "$tmp/r" -- "$prog" run 30000 2> "$tmp/rec.err" &
rp=$!
pids="$pids $rp"
wait_for "$tmp/r/info/system.xml"
i=0
until grep -q "^ltt record: pid [0-9]* runs $prog$" "$tmp/rec.err"; do
	i=$((i + 1)); [ $i -le 1000 ] || fail "ltt record printed no pid: $(cat "$tmp/rec.err")"; sleep 0.01
done
cp=$(sed -n 's/^ltt record: pid \([0-9]*\) runs .*/\1/p' "$tmp/rec.err")
pids="$pids $cp"
wait_registry "$cp" "$tmp/r"
kill -USR2 "$rp"
wait_for "$tmp/r/snapshot-0001"
kill -0 "$rp" || fail "ltt record died of SIGUSR2"
out=$("$LTT" snapshot "$cp") || fail "under record, by pid: $out"
[ "$out" = "$tmp/r/snapshot-0002" ] || fail "under record printed '$out'"
kill -TERM "$rp"
wait "$rp"; st=$?
[ $st = 0 ] || fail "ltt record exited $st after SIGTERM (the program should end cleanly): $(cat "$tmp/rec.err")"
grep -q "^ltt record: snapshot written to $tmp/r/snapshot-0003$" "$tmp/rec.err" ||
	fail "no snapshot at exit: $(cat "$tmp/rec.err")"

# errors
LTT_TRACE="$tmp/d" "$prog" run 30000 &
p=$!
pids="$pids $p"
wait_for "$tmp/d/info/system.xml"
out=$("$LTT" snapshot "$p" 2>&1) && fail "discard process: $out"
[ "$out" = "ltt snapshot: process $p does not record a flight trace (ltt snapshot needs LTT_MODE=flight or ltt record --mode flight)" ] ||
	fail "discard process: '$out'"
out=$("$LTT" snapshot "$tmp/d" 2>&1) && fail "discard trace: $out"
[ "$out" = "ltt snapshot: $tmp/d: not a flight trace (ltt_mode=\"discard\"): no snapshot to take" ] ||
	fail "discard trace: '$out'"
kill -TERM "$p"
wait "$p"
# a registry file left by a killed process whose pid a live process now has: never signalled
sleep 30 &
sp=$!
pids="$pids $sp"
mkdir -p "$reg"
printf '%s\n12\n1\n' "$tmp/f" > "$reg/flight-$sp"
out=$("$LTT" snapshot "$sp" 2>&1) && fail "stale registry file: $out"
rm -f "$reg/flight-$sp"
[ "$out" = "ltt snapshot: process $sp does not record a flight trace (ltt snapshot needs LTT_MODE=flight or ltt record --mode flight)" ] ||
	fail "stale registry file: '$out'"
kill -0 "$sp" || fail "the process of a stale registry file was signalled"
out=$("$LTT" snapshot 2147483646 2>&1) && fail "no such process: $out"
[ "$out" = "ltt snapshot: process 2147483646 does not exist" ] || fail "no such process: '$out'"
out=$("$LTT" snapshot "$tmp" 2>&1) && fail "not a trace: $out"
[ "$out" = "ltt snapshot: $tmp: not a trace directory (no info/system.xml)" ] || fail "not a trace: '$out'"
echo ok
