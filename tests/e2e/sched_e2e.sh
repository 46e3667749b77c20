#!/bin/sh
# SPDX-License-Identifier: MIT
# Why was it slow, end to end, on a real kernel recording (issue 25): tests/progs/sched_prog all,
# recorded with `ltt record --kernel=sched,syscalls --waits` (root: the sched_switch and raw_syscalls
# tracepoints), prints its own ground truth; then
# - ltt stats --sched: the spinner's running time within 10% of its CLOCK_THREAD_CPUTIME_ID, the
#   sleeper's 10 x 50 ms asleep (sleeping) within 10% of its own measure (recorded with --system, where
#   every wakeup is; in process scope, between its time to the deadlines and to the returns), the
#   writer's 2000 write() calls exactly; a thread's sched_yield calls that switched (its own count)
#   are exactly its yields, voluntary;
# - ltt stats --regions: the reader's region io/pipe, blocked until the main thread fills the pipe
#   100 ms later, has at least 90 ms off CPU and read as its longest system call;
# - ltt sql: the same region's time by state from thread_states, and its read from syscalls;
# - ltt stats --waits: the 50 ms mutex wait (at least 45 ms) with the holder's tid;
# - ltt export --format=perfetto: decodes against Perfetto's field numbers with no unknown field,
#   one sched_switch per switch event of the trace (schedchange and thread_switch);
# - ltt export --format=lttng read by lttng-analyses: lttng-syscallstats-mi's system calls per thread
#   equal ltt stats --sched's completed calls exactly, lttng-cputop-mi's CPU time per thread (threads
#   of 50 ms or more) is ltt stats --sched's running time within 5%.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
[ "$(id -u)" = 0 ] || { echo "skip: needs root for the kernel's tracepoints (CI runs as root)"; exit 77; }
prog="$BUILD/tests/progs/sched_prog"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
val() { awk -v k="$1" '$1 == k { print $2 }' out; }
within() {	# what got want percent
	awk -v g="$2" -v w="$3" -v p="$4" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(w > 0 && d <= w * p / 100) }' ||
		{ echo "$1: $2, want $3 within $4%"; fail=1; }
}
"$LTT" record -o t --kernel=sched,syscalls --waits -- "$prog" all > out 2> err ||
	{ echo "ltt record failed:"; cat err; exit 1; }
for k in sleeper sleeper_asleep_ns sleeper_late_ns writer spinner spinner_cpu_ns reader holder waiter lock; do
	[ -n "$(val $k)" ] || { echo "no $k in the program's output:"; cat out; exit 1; }
done
"$LTT" stats --sched --format=json t > s.json || { echo "ltt stats --sched failed"; exit 1; }
th() { jq -r ".threads[] | select(.tid == $1) | $2" s.json; }
within "spinner running_ns" "$(th "$(val spinner)" .running_ns)" "$(val spinner_cpu_ns)" 10
# The sleeper's sleeps: in process scope a wakeup is recorded only when one of the program's threads is
# on the CPU (doc/cli.md), so a sleep lasts from the switch-out to the deadline at least, to the switch-in
# at most (its wait for a CPU after the timer included): within 10% of the program's measures of both
sl=$(th "$(val sleeper)" .sleeping_ns)
awk -v s="$sl" -v a="$(val sleeper_asleep_ns)" -v l="$(val sleeper_late_ns)" 'BEGIN { exit !(s >= a * 0.9 && s <= (a + l) * 1.1) }' ||
	{ echo "sleeper sleeping_ns: $sl, want $(val sleeper_asleep_ns) - 10% to $(val sleeper_asleep_ns) + $(val sleeper_late_ns) + 10%"; fail=1; }
[ "$(th "$(val sleeper)" .switches_voluntary)" -ge 10 ] || { echo "sleeper: fewer than 10 voluntary switches"; fail=1; }
# ... with --system every wakeup is recorded: asleep within 10% of the time to its deadlines, the wait
# after each (the timer's slack, the wait for a CPU) runnable
"$LTT" record -o ts --system --kernel=sched -- "$prog" sleep > sout 2> serr || { echo "ltt record --system failed:"; cat serr; exit 1; }
"$LTT" stats --sched --format=json ts > ts.json || { echo "ltt stats --sched (system) failed"; exit 1; }
sv() { awk -v k="$1" '$1 == k { print $2 }' sout; }
st() { jq -r ".threads[] | select(.tid == $(sv sleeper)) | $1" ts.json; }
within "sleeper sleeping_ns (--system)" "$(st .sleeping_ns)" "$(sv sleeper_asleep_ns)" 10
[ "$(st '.switches_voluntary >= 10')" = true ] ||
	{ echo "sleeper (--system): voluntary switches '$(st .switches_voluntary)', want 10 at least"; fail=1; }
# Not asserted: in some --system recordings (2 of 3 runs at times, plain and ASan builds alike) the
# sleeper's timer wakeups and one CPU's idle-task events are absent and nothing is counted lost. The
# kernel's own tool shows the same on this guest (6.18): `perf record -a -e sched:sched_switch,
# sched:sched_wakeup -- sched_prog sleep` recorded 0 of the sleeper's 10 wakeups, and no event of
# swapper on CPU 1, in 8 runs of 8. So the count is reported, not asserted (a kernel's, not ltt's, gap).
[ "$(st '.wakeups >= 10')" = true ] ||
	echo "note (not failed): sleeper (--system): $(st .wakeups) wakeups recorded of 10 (the kernel did not emit the rest: see above)"
# sched_yield: the calls that switched (the kernel's involuntary count rose across them: a yield that
# finds no other thread does not switch) are the thread's yields exactly, and voluntary
"$LTT" record -o ty --kernel=sched,syscalls -- "$prog" yield 50 > yout 2> yerr || { echo "ltt record (yield) failed:"; cat yerr; exit 1; }
yv() { awk -v k="$1" '$1 == k { print $2 }' yout; }
"$LTT" stats --sched --format=json ty > ty.json || { echo "ltt stats --sched (yield) failed"; exit 1; }
got=$(jq -r ".threads[] | select(.tid == $(yv yielder)) | \"\(.yields) \(.switches_voluntary >= .yields)\"" ty.json)
[ "$got" = "$(yv yields_switched) true" ] && [ "$(yv yields_switched)" -gt 0 ] ||
	{ echo "yields: '$got', the program's: $(yv yields_switched) of $(yv yields)"; fail=1; }
[ "$("$LTT" sql ty --format=csv -e "SELECT count(*) FROM thread_states WHERE tid = $(yv yielder) AND cause = 'yielded'" | tail -n 1)" = "$(yv yields_switched)" ] ||
	{ echo "thread_states: not $(yv yields_switched) intervals runnable after a yield"; fail=1; }
[ "$(th "$(val writer)" '.calls[] | select(.name == "write") | .count')" = 2000 ] ||
	{ echo "writer's write calls: $(th "$(val writer)" '.calls[] | select(.name == "write") | .count')"; fail=1; }
[ "$(th "$(val writer)" '.calls[] | select(.name == "write") | .completed')" = 2000 ] || { echo "writes completed"; fail=1; }

"$LTT" stats --regions --format=json t > r.json || { echo "ltt stats --regions failed"; exit 1; }
got=$(jq -r --argjson t "$(val reader)" '.threads[] | select(.tid == $t) | .regions[] | select(.label == "pipe") |
	"\(.off_cpu_ns >= 90000000) \(.longest_syscall.name)"' r.json)
[ "$got" = "true read" ] || { echo "region io/pipe: '$got'"; jq -c '.threads[]' r.json; fail=1; }
"$LTT" stats --regions t | grep -E ' pipe .* read [0-9.]+ms$' > /dev/null || { echo "text --regions: no read"; fail=1; }
off=$("$LTT" sql t --format=csv -e "SELECT sum(min(s.end_ns, r.ts_ns + r.dur_ns) - max(s.ts_ns, r.ts_ns)) FROM regions r
	JOIN thread_states s ON s.tid = r.tid AND s.end_ns > r.ts_ns AND s.ts_ns < r.ts_ns + r.dur_ns
	WHERE r.label = 'pipe' AND s.state IN ('sleeping', 'blocked', 'other')" | tail -n 1)
[ "$off" -ge 90000000 ] 2>/dev/null || { echo "sql: the region's off-CPU time is $off"; fail=1; }
[ "$("$LTT" sql t --format=csv -e "SELECT s.name FROM regions r JOIN syscalls s ON s.tid = r.tid AND s.ts_ns >= r.ts_ns
	AND s.end_ns <= r.ts_ns + r.dur_ns WHERE r.label = 'pipe' ORDER BY s.dur_ns DESC LIMIT 1" | tail -n 1)" = read ] ||
	{ echo "sql: the region's longest call is not read"; fail=1; }

"$LTT" stats --waits --format=json t > w.json || { echo "ltt stats --waits failed"; exit 1; }
got=$(jq -r --arg l "$(val lock)" '.locks[] | select(.lock == $l) | "\(.holders[0].tid) \(.max_ns >= 45000000)"' w.json)
[ "$got" = "$(val holder) true" ] || { echo "the mutex wait: '$got'"; cat w.json; fail=1; }

"$LTT" export --format=perfetto -o k.pftrace t || { echo "ltt export --format=perfetto failed"; exit 1; }
protoc --proto_path="$SRCDIR/tests/export" --decode=perfetto.protos.Trace perfetto.proto < k.pftrace > k.txt 2> k.err ||
	{ echo "protoc cannot decode:"; cat k.err; exit 1; }
awk -f "$SRCDIR/tests/export/check_perfetto.awk" k.txt > k.sum
grep '^check:' k.sum && fail=1
n=$("$LTT" dump --event kernel.schedchange --event kernel.thread_switch t | wc -l)
[ "$(grep -c 'sched_switch {' k.txt)" = "$n" ] && [ "$n" -gt 10 ] ||
	{ echo "sched_switch: $(grep -c 'sched_switch {' k.txt), switch events $n"; fail=1; }

"$LTT" export --format=lttng -o k.lttng t || { echo "ltt export --format=lttng failed"; exit 1; }
lttng-syscallstats-mi --skip-validation k.lttng > ss.json 2> ss.err || { echo "lttng-syscallstats-mi failed:"; tail -3 ss.err; exit 1; }
jq -r '.results[] | select(.class.inherit? == "per-tid") | (.class.title | capture("TID: (?<t>[0-9]+)").t) as $t
	| "\($t) \([.data[][1].value] | add)"' ss.json | sort > got
jq -r '.threads[] | select(.syscalls_completed > 0) | "\(.tid) \(.syscalls_completed)"' s.json | sort > want
[ "$(wc -l < want)" -ge 5 ] && cmp -s got want || { echo "system calls per thread (< lttng-syscallstats, > ltt):"; diff got want; fail=1; }
lttng-cputop-mi --skip-validation --limit 100000 k.lttng > ct.json 2> ct.err || { echo "lttng-cputop-mi failed:"; tail -3 ct.err; exit 1; }
jq -r '.results[0] as $r | ($r["time-range"].end.value - $r["time-range"].begin.value) as $d
	| $r.data[] | "\(.[0].tid) \(.[3].value * $d | floor)"' ct.json | sort > got
# threads of 50 ms or more (the spinner): a short thread's few ms differ by where lttng-cputop starts
# counting a thread it first sees leaving a CPU in a process-scope recording (the trace's start)
jq -r '.threads[] | select(.running_ns >= 50000000) | "\(.tid) \(.running_ns)"' s.json | sort > want
grep -q "^$(val spinner) " want || { echo "the spinner is not among the threads of 1 ms"; fail=1; }
bad=$(join got want | awk '{ d = $2 - $3; if (d < 0) d = -d; if (d > $3 * 0.05) print }')
[ -z "$bad" ] && [ "$(join got want | wc -l)" = "$(wc -l < want)" ] ||
	{ echo "CPU time per thread beyond 5% (tid lttng-cputop ltt):"; echo "$bad"; join -v2 got want; fail=1; }
exit $fail
