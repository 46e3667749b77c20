#!/bin/sh
# SPDX-License-Identifier: MIT
# Flight mode and a program that handles SIGSEGV itself (installed before the trace starts): the
# fault reaches the program's handler with its real siginfo (si_addr, si_code, ucontext), with or
# without SA_SIGINFO, no snapshot is taken for it, and the program goes on to a clean exit (whose
# snapshot is the only one). SIG_IGN installed with the SA_SIGINFO flag: a SIGSEGV sent is ignored.
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
	want=3; [ $how = ignored ] && want=0
	[ "$out" = "survived faults=$want" ] || fail "$how: $out"
	[ -d "$tmp/$how/snapshot-0001" ] || fail "$how: no snapshot at exit"
	[ ! -e "$tmp/$how/snapshot-0002" ] || fail "$how: a snapshot for a handled fault: $(ls "$tmp/$how")"
	"$LTT" check "$tmp/$how/snapshot-0001" || fail "$how: ltt check"
	n=$("$LTT" dump --event flighttest.tick "$tmp/$how/snapshot-0001" | wc -l)
	[ "$n" = 3 ] || fail "$how: $n ticks in the snapshot, expected 3"
done
echo ok
