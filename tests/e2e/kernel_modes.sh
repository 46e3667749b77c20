#!/bin/sh
# SPDX-License-Identifier: MIT
# Kernel events in every mode (doc/recorder.md "Kernel events"), as root: flight mode's SIGSEGV dump
# and `ltt snapshot PID` hold every write() of the window; after kill -9, `ltt recover` finds the kernel
# events drained before the kill; rotation puts kernel events in every chunk, each exactly once; a
# syscall storm into a tiny perf ring counts its losses (events_lost cause kernel), never silent;
# ltt check is clean on all.
set -u
# under a sanitizer (make asan / tsan) the program's own SIGSEGV handler must get the signal
export ASAN_OPTIONS="handle_segv=0:${ASAN_OPTIONS:-}" TSAN_OPTIONS="handle_segv=0:${TSAN_OPTIONS:-}"
prog="$BUILD/tests/progs/kernel_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root (CI runs as root)"; exit 77; }
tmp=$(mktemp -d /tmp/ltt-e2e-kernel-modes-XXXXXX)
pid=
trap '[ -n "$pid" ] && kill -9 "$pid" 2>/dev/null; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# a write's exit, or the whole call in one kernel.syscall (doc/format.md section 13)
writes() { "$LTT" dump "$1" 2>/dev/null | grep -cE '^kernel\.syscall(_exit)?: .*syscall_id = 1 \(write\), (cycles = [0-9]+, )?ret = 64( }|, args)'; }
wait_done() { for _ in $(seq 300); do grep -q '^done' "$1" && return 0; sleep 0.1; done; fail "no done in $1"; }

# flight mode, SIGSEGV: the dump holds the 500 writes
LTT_TRACE="$tmp/f" LTT_MODE=flight LTT_KERNEL=sched,syscalls "$prog" segv 500 > /dev/null 2>&1
[ -d "$tmp/f/snapshot-0001" ] || fail "no snapshot at SIGSEGV"
"$LTT" check "$tmp/f/snapshot-0001" > /dev/null || fail "ltt check (segv)"
[ "$(writes "$tmp/f/snapshot-0001")" = 500 ] || fail "segv snapshot: $(writes "$tmp/f/snapshot-0001") writes, 500 expected"

# flight mode, ltt snapshot PID, then kill -9 and ltt recover
mkdir "$tmp/shm"
LTT_TRACE="$tmp/g" LTT_MODE=flight LTT_SHM_DIR="$tmp/shm" LTT_KERNEL=sched,syscalls "$prog" hang 700 > "$tmp/hang.out" 2>&1 &
pid=$!
wait_done "$tmp/hang.out"
"$LTT" snapshot "$pid" > "$tmp/snap.out" 2>&1 || fail "ltt snapshot: $(cat "$tmp/snap.out")"
[ "$(writes "$tmp/g/snapshot-0001")" = 700 ] || fail "ltt snapshot: $(writes "$tmp/g/snapshot-0001") writes, 700 expected"
"$LTT" check "$tmp/g/snapshot-0001" > /dev/null || fail "ltt check (snapshot)"
sleep 0.1	# two drain periods (10 ms): the program is idle, its last records are drained
kill -9 "$pid"; wait "$pid" 2>/dev/null; pid=
"$LTT" recover "$tmp"/shm/*.ring -o "$tmp/rec" > "$tmp/rec.out" 2>&1 || fail "ltt recover: $(cat "$tmp/rec.out")"
"$LTT" check "$tmp/rec" > /dev/null || fail "ltt check (recovered)"
[ "$(writes "$tmp/rec")" = 700 ] || fail "recovered: $(writes "$tmp/rec") writes, 700 expected"

# rotation: kernel events in every chunk, every write once; 60000 writes are about 5 MB of kernel
# events, at least 3 chunks of 1 MB even when the kernel rings drop half of them under load
LTT_TRACE="$tmp/r" LTT_ROTATE_SIZE=1M LTT_BLOCK_SIZE=64k LTT_BLOCKS=64 LTT_KERNEL=syscalls "$prog" run 60000 > /dev/null 2>&1 ||
	fail "rotation run"
n=0
for c in "$tmp"/r/chunk-*; do
	n=$((n + 1))
	"$LTT" check "$c" > /dev/null || fail "ltt check $c"
	[ "$("$LTT" dump --event 'kernel.syscall*' "$c" | wc -l)" -gt 0 ] || fail "$c: no kernel events"
done
[ "$n" -ge 3 ] || fail "rotation: $n chunks"
# every write once; on a loaded machine the kernel rings may drop (counted): then fewer, the losses
# covering them
lost=0
for c in "$tmp"/r/chunk-*; do
	l=$("$LTT" stats "$c" | sed -n 's/^  lost        \([0-9]*\) events.*/\1/p')
	lost=$((lost + ${l:-0}))
done
w=$(writes "$tmp/r")
if [ "$lost" = 0 ]; then
	[ "$w" = 60000 ] || fail "rotation: $w writes, 60000 expected (nothing lost)"
else
	[ "$w" -le 60000 ] && [ $((w + lost)) -ge 60000 ] || fail "rotation: $w writes and $lost lost for 60000"
fi
[ "$("$LTT" dump --event 'kernel.*' "$tmp/r" | sort | uniq -d | wc -l)" = 0 ] || fail "rotation: duplicated kernel events"

# a perf ring overflow: 200000 getppid() into 8 KiB rings
LTT_TRACE="$tmp/o" LTT_KERNEL=syscalls LTT_KERNEL_BUFFER=8k "$prog" storm 200000 > /dev/null 2>&1 || fail "storm"
"$LTT" check "$tmp/o" > /dev/null || fail "ltt check (overflow)"
lost=$("$LTT" stats "$tmp/o" | sed -n 's/.* kernel \([0-9]*\), unknown.*/\1/p')
# perf's records: an entry or an exit each, a whole call (kernel.syscall) both
recorded=$("$LTT" dump --event 'kernel.syscall*' "$tmp/o" | awk '/syscall_id = 110 \(getppid\)/ { n += /^kernel\.syscall:/ ? 2 : 1 } END { print n + 0 }')
[ "${lost:-0}" -gt 0 ] || fail "overflow: no kernel losses counted"
[ $((lost + recorded)) -ge 400000 ] || fail "overflow: $recorded getppid events + $lost lost < 400000"
echo "ok: segv, snapshot, recover, $n chunks, overflow ($lost lost)"
