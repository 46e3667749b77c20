#!/bin/sh
# SPDX-License-Identifier: MIT
# A flight snapshot claims only what each kernel stream kept (issue 36 point 1, issue 34 point 3): a
# thread of tests/progs/runq_prog stays 100 ms on the first CPU (1 ms sleeps), then visits the last, while
# another floods the last CPU with getppid() calls for half the time, recorded in flight mode with
# small rings, so the CPUs' kernel rings keep different stretches of time and perf loses events. Between its rq.begin and rq.end events,
# no stretch of the mover off a CPU in thread_states (runnable, sleeping, blocked, other in a row) may be
# longer than the longest gap between its own clock reads (before: the last state before the flooded
# CPU's lost history was stretched over it, 142 ms "blocked in sched_setaffinity"); the time the trace
# cannot know is not_recorded; ltt stats --sched gives the common window (text and JSON) and no
# system call of the mover is longer than that gap either.
set -u
prog="$BUILD/tests/progs/runq_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root (the syscall tracepoints flood the ring)"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "skip: needs 2 CPUs"; exit 77; }
tmp=$(mktemp -d /tmp/ltt-e2e-kernel-window-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cd "$tmp" || exit 1
LTT_KERNEL=sched,syscalls LTT_KERNEL_BUFFER=64k "$LTT" record --mode flight --block-size 4096 --blocks 8 -o fl -- \
	"$prog" move 1500 > out 2> err || fail "record: $(cat err)"
s=fl/snapshot-0001
[ -d "$s" ] || fail "no snapshot: $(cat err)"
mover=$(sed -n 's/^mover tid=\([0-9]*\) .*/\1/p' out)
gap=$(sed -n 's/.* gap_max_ns=\([0-9]*\)$/\1/p' out)
[ -n "$mover" ] && [ -n "$gap" ] || fail "program output: $(cat out)"
"$LTT" check "$s" > /dev/null || fail "ltt check"
"$LTT" stats "$s" | grep -q '^  overwritten [1-9]' || fail "nothing overwritten: the test did not test"

# the mover's stretches off a CPU between its begin and end events
b=$("$LTT" sql "$s" --format=csv -e "SELECT ts_ns FROM app_data_int WHERE key = 'begin'" | tail -n 1)
e=$("$LTT" sql "$s" --format=csv -e "SELECT ts_ns FROM app_data_int WHERE key = 'end'" | tail -n 1)
[ -n "$b" ] && [ -n "$e" ] || fail "no rq.begin/rq.end events"
"$LTT" sql "$s" --format=csv -e "SELECT ts_ns, end_ns, state FROM thread_states WHERE tid = $mover
	AND end_ns > $b AND ts_ns < $e ORDER BY ts_ns" > states || fail "thread_states"
res=$(awk -F, -v B="$b" -v E="$e" 'NR > 1 {
	s = $1 < B ? B : $1; t = $2 > E ? E : $2
	if ($3 == "runnable" || $3 == "sleeping" || $3 == "blocked" || $3 == "other") {
		if (!open) { open = 1; start = s; n++ } ; last = t
	} else { if (open && last - start > max) max = last - start; open = 0 }
	if ($3 == "not_recorded") nr += t - s }
	END { if (open && last - start > max) max = last - start; printf "%d %d %d\n", max, nr, n }' states)
set -- $res
[ "$3" -ge 3 ] || fail "only $3 known off-CPU stretches of the mover: the test did not test"
[ "$1" -le "$gap" ] || fail "an off-CPU stretch of $1 ns, longer than the mover's own longest gap $gap ns"
echo "$3 off-CPU stretches, the longest $1 ns <= the program's gap $gap ns; not_recorded $2 ns"

# no system call of the mover longer than the gap (none paired across the lost history)
max=$("$LTT" sql "$s" --format=csv -e "SELECT coalesce(max(dur_ns), 0) FROM syscalls WHERE tid = $mover
	AND ts_ns > $b AND end_ns < $e" | tail -n 1)
[ "$max" -le "$gap" ] || fail "a system call of $max ns, longer than the gap $gap ns"

# the window said
"$LTT" stats --sched "$s" > sched.txt || fail "stats --sched"
grep -q "^kept history: every CPU's from .* before the end (cpu " sched.txt || fail "no window line: $(head -3 sched.txt)"
"$LTT" stats --sched --format=json "$s" > sched.json || fail "stats --sched json"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["common_start_ns"][0] > 0, d["common_start_ns"]
assert d["cpus_distinct"] == len({c["cpu"] for c in d["cpus"]})
assert max(c["history_start_ns"] for c in d["cpus"]) == d["common_start_ns"][0]
' sched.json || fail "JSON window"
echo ok
