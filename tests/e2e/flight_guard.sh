#!/bin/sh
# SPDX-License-Identifier: MIT
# Flight mode and a program that handles SIGSEGV itself (installed before the trace starts): the
# fault reaches the program's handler with its real siginfo (si_addr, si_code, ucontext), with or
# without SA_SIGINFO, and the program goes on to a clean exit. libltt's handler stays first: the first
# fault takes a crash snapshot before calling the program's handler (it could not know the program
# recovers); once that handler returned and the program went on, later faults call it first with no
# snapshot (a guard page, a JIT: doc/flight-recorder.md), so three faults make one snapshot, and the
# one at exit is the second. SIG_IGN installed with the SA_SIGINFO flag: a SIGSEGV sent is ignored.
set -u
prog="$BUILD/tests/progs/flight_guard"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-guard-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ulimit -c 0
export ASAN_OPTIONS="handle_segv=0:${ASAN_OPTIONS:-}" TSAN_OPTIONS="handle_segv=0:${TSAN_OPTIONS:-}"
for how in siginfo plain ignored; do
	out=$("$prog" "$tmp/$how" $how 2>&1)
	rc=$?
	[ $rc -eq 0 ] || fail "$how: exit status $rc: $out"
	want=3 snaps=2; [ $how = ignored ] && want=0 snaps=1
	[ "$out" = "survived faults=$want" ] || fail "$how: $out"
	last=$tmp/$how/snapshot-000$snaps
	[ -d "$last" ] || fail "$how: no snapshot at exit: $(ls "$tmp/$how")"
	[ ! -e "$tmp/$how/snapshot-000$((snaps + 1))" ] || fail "$how: a snapshot for each handled fault: $(ls "$tmp/$how")"
	"$LTT" check "$last" || fail "$how: ltt check"
	if [ $snaps = 2 ]; then
		n=$("$LTT" dump --event flighttest.tick "$tmp/$how/snapshot-0001" | wc -l)
		[ "$n" = 1 ] || fail "$how: $n ticks in the first fault's snapshot, expected 1"
	fi
	n=$("$LTT" dump --event flighttest.tick "$last" | wc -l)
	[ "$n" = 3 ] || fail "$how: $n ticks in the snapshot, expected 3"
done
echo ok
