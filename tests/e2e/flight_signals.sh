#!/bin/sh
# SPDX-License-Identifier: MIT
# Snapshots taken by the process's end and by a signal from outside: abort() (SIGABRT snapshot, status
# 134), a return from main (the snapshot at exit, on by default, off with LTT_SNAPSHOT_AT_EXIT=0), and
# kill -USR2 while the program records (then kill -9).
set -u
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-signals-XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; reg_forget "$tmp/usr2" "$tmp/abort"; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
v() { echo "$out" | head -n 1 | tr ' ' '\n' | sed -n "s/^$1=//p"; }
export LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8
export ASAN_OPTIONS="handle_abort=0:${ASAN_OPTIONS:-}" TSAN_OPTIONS="handle_abort=0:${TSAN_OPTIONS:-}"
ulimit -c 0

# the last ticks N-K .. N-1, the others counted overwritten
check_last() {
	out=$("$prog" check "$1") || fail "check failed: $out"
	echo "$out"
	[ "$(v problems)" = 0 ] || fail "$1: problems: $out"
	t0=$(v t0); count=${t0%%:*}; range=${t0#*:}; first=${range%-*}; last=${range#*-}
	[ "$last" = $(($2 - 1)) ] || fail "$1: last tick $last, expected $(($2 - 1))"
	[ "$first" = $(($2 - count)) ] || fail "$1: ticks not contiguous: $t0"
	[ "$(v blocks_lost_events)" = "$first" ] || fail "$1: overwritten $(v blocks_lost_events), expected $first"
}

LTT_TRACE="$tmp/abort" "$prog" abort 50000 2>/dev/null
rc=$?
[ $rc -eq 134 ] || fail "abort: exit status $rc, expected 134 (SIGABRT)"
[ -z "$(reg_of "$tmp/abort")" ] || fail "abort: the registry file is left: $(reg_of "$tmp/abort")"
check_last "$tmp/abort/snapshot-0001" 50000

LTT_TRACE="$tmp/exit" "$prog" exit 30000 || fail "exit: status $?"
check_last "$tmp/exit/snapshot-0001" 30000
LTT_TRACE="$tmp/noexit" LTT_SNAPSHOT_AT_EXIT=0 "$prog" exit 30000 || fail "exit: status $?"
[ -d "$tmp/noexit" ] && [ ! -e "$tmp/noexit/snapshot-0001" ] || fail "a snapshot at exit with LTT_SNAPSHOT_AT_EXIT=0"

LTT_TRACE="$tmp/usr2" "$prog" spin "$tmp/progress" &
pid=$!
i=0
while [ $i -lt 200 ]; do
	[ -s "$tmp/progress" ] && [ "$(od -An -tu8 -j8 -N8 "$tmp/progress" | tr -d ' ')" = 1 ] && break
	sleep 0.05; i=$((i + 1))
done
kill -USR2 $pid
i=0
while [ ! -d "$tmp/usr2/snapshot-0001" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
[ -d "$tmp/usr2/snapshot-0001" ] || fail "no snapshot after SIGUSR2"
kill -0 $pid 2>/dev/null || fail "the program did not survive its snapshot signal"
kill -9 $pid; wait $pid 2>/dev/null; reg_forget_pid $pid; pid=
out=$("$prog" check "$tmp/usr2/snapshot-0001") || fail "check failed: $out"
echo "$out"
[ "$(v problems)" = 0 ] || fail "usr2: problems: $out"
[ "$(v bad)" = 0 ] || fail "usr2: garbage: $out"
case "$(v t0)" in ""|*gappy*|*dup*) fail "usr2: ticks missing or not contiguous: $(v t0)" ;; esac
echo "ok: abort, exit and SIGUSR2 snapshots"
