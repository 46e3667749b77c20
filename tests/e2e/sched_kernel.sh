#!/bin/sh
# SPDX-License-Identifier: MIT
# The scheduling model on the kernel facility's events (eventdefs/kernel.xml, doc/format.md section
# 13), in a trace written by tests/progs/mktrace with known times (1 cycle = 1 ns), so that every
# figure of ltt stats --sched, --regions and ltt sql's thread_states and syscalls is known exactly:
# two CPUs; thread 100 (prog) runs on CPU 0, calls read (0) which sleeps 7 µs, is woken, waits 2 µs
# for the CPU, returns, calls write (1), is interrupted (irq 9, 1 µs) and takes a page fault, then
# migrates to CPU 1; thread 200 (other) runs on CPU 0 meanwhile and is preempted by 100; thread 300
# is forked by 100, yields, then exits. Regions of 100 around the read and after the migration.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fail=0
check() {	# what, got, want
	[ "$2" = "$3" ] || { printf '%s:\n  got  %s\n  want %s\n' "$1" "$2" "$3"; fail=1; }
}
cat > script <<'END'
ev 0 1000 kernel.schedchange 0 0 100 0 120 120 "swapper/0" prog
ev 0 1500 app.region_enter 100 "f.c" 1 0 "io" "wait" ""
ev 0 2000 kernel.syscall_entry 100 0 3 0 0 0 0 0
ev 0 3000 kernel.schedchange 100 100 200 1 120 120 prog other
ev 1 9000 kernel.process 100 wakeup 0 0 120 prog
ev 0 11000 kernel.schedchange 200 200 100 256 120 120 other prog
ev 0 12000 kernel.syscall_exit 100 0 5
ev 0 12500 kernel.syscall_entry 100 1 1 0 0 0 0 0
ev 0 13000 kernel.irq_entry 100 9 "eth0"
ev 0 14000 kernel.irq_exit 100 9 1
ev 0 14500 kernel.syscall_exit 100 1 64
ev 0 15000 app.region_leave 100 "f.c" 1 0 "io" "wait" ""
ev 0 16000 kernel.trap_entry 100 14 4096 4200 6 0
ev 0 17000 kernel.process 100 fork 300 0 0 child
ev 0 18000 kernel.schedchange 100 100 300 256 120 120 prog child
ev 0 19000 kernel.soft_irq 300 entry TIMER
ev 0 19500 kernel.soft_irq 300 exit TIMER
ev 0 20000 kernel.schedchange 300 300 200 0 120 120 child other
ev 1 21000 kernel.schedchange 0 0 100 0 120 120 "swapper/1" prog
ev 1 21500 app.region_enter 100 "f.c" 2 0 "cpu" "spin" ""
ev 1 29000 app.region_leave 100 "f.c" 2 0 "cpu" "spin" ""
ev 0 30000 kernel.schedchange 200 200 300 256 120 120 other child
ev 0 31000 kernel.process 300 exit 0 0 120 child
ev 0 32000 kernel.schedchange 300 300 0 16 120 120 child "swapper/0"
ev 1 40000 kernel.schedchange 100 100 0 1 120 120 prog "swapper/1"
END
"$BUILD/tests/progs/mktrace" -o t -c 2 -f "$SRCDIR/eventdefs/kernel.xml" -f "$SRCDIR/eventdefs/app.xml" -s script ||
	{ echo "mktrace failed"; exit 1; }
"$LTT" stats --sched --format=json t > s.json || { echo "ltt stats --sched failed"; exit 1; }
th() { jq -r ".threads[] | select(.tid == $1) | $2" s.json; }
# 100: on CPU 0 1000-3000 (user 1000-2000, read 2000-3000), sleeping 3000-9000, runnable 9000-11000,
# on CPU 0 11000-18000 (read 11000-12000, user 12000-12500, write 12500-13000, irq 13000-14000,
# write 14000-14500, user 14500-18000), runnable (preempted) 18000-21000, CPU 1 21000-40000 (user):
# user 1000 + 500 + 3500 + 19000, syscall 1000 + 1000 + 500 + 500.
check "thread 100 times" "$(th 100 '"\(.user_ns) \(.syscall_ns) \(.irq_ns) \(.runnable_ns) \(.sleeping_ns) \(.running_ns)"')" \
	"24000 3000 1000 5000 6000 28000"
check "thread 100 switches, migrations, wakeups, longest wait" \
	"$(th 100 '"\(.switches_voluntary) \(.switches_involuntary) \(.migrations) \(.wakeups) \(.wakeup_wait_max_ns) \(.irqs) \(.faults)"')" \
	"2 1 1 1 2000 1 1"
check "thread 100 calls" "$(th 100 '[.calls[] | "\(.nr):\(.count):\(.completed):\(.total_ns):\(.max_ns)"] | join(" ")')" \
	"0:1:1:10000:10000 1:1:1:2000:2000"
check "thread 100 preempted by" "$(th 100 '"\(.preempted_by.tid) \(.preempted_by.name)"')" "300 child"
# 200: on CPU 0 3000-11000, runnable (preempted by 100) 11000-20000, on 20000-30000, runnable to the end (40000)
check "thread 200" "$(th 200 '"\(.running_ns) \(.runnable_ns) \(.switches_involuntary) \(.preempted_by.tid)"')" \
	"18000 19000 2 100"
# 300: new (runnable) 17000-18000, on 18000-20000 (softirq 19000-19500), switched out in state 0
# (runnable: preempted) 20000-30000, on 30000-31000, exits at 31000: no time after
check "thread 300" "$(th 300 '"\(.running_ns) \(.softirq_ns) \(.runnable_ns) \(.switches_voluntary) \(.switches_involuntary) \(.other_ns)"')" \
	"3000 500 11000 1 1 0"
check "CPU 0" "$(jq -r '.cpus[] | select(.cpu == 0) | "\(.busy_ns) \(.irq_ns) \(.softirq_ns) \(.idle_ns) \(.unknown_ns) \(.switches)"' s.json)" \
	"31000 1000 500 8000 0 7"
check "CPU 1" "$(jq -r '.cpus[] | select(.cpu == 1) | "\(.busy_ns) \(.idle_ns) \(.unknown_ns) \(.switches)"' s.json)" \
	"19000 0 12000 2"
check "interrupts" "$(jq -r '[.interrupts[] | "\(.kind):\(.nr):\(.count):\(.total_ns)"] | join(" ")' s.json)" "irq:9:1:1000 softirq:1:1:500"

# regions: io/wait 1500-15000: on CPU 1500-3000 and 11000-15000 (5500), runnable 2000, off 6000, longest read 10000
"$LTT" stats --regions --format=json t > r.json || { echo "ltt stats --regions failed"; exit 1; }
check "region io/wait" "$(jq -r '.overall[] | select(.label == "wait") | "\(.on_cpu_ns) \(.runnable_ns) \(.off_cpu_ns) \(.longest_syscall.nr) \(.longest_syscall.ns)"' r.json)" \
	"5500 2000 6000 0 10000"
check "region cpu/spin" "$(jq -r '.overall[] | select(.label == "spin") | "\(.on_cpu_ns) \(.runnable_ns) \(.off_cpu_ns) \(.longest_syscall)"' r.json)" \
	"7500 0 0 null"
"$LTT" stats --regions t | grep -q 'on-cpu runnable  off-cpu  longest-call' || { echo "text --regions: no kernel columns"; fail=1; }

# ltt sql: the same from the tables, and the join of doc/cli.md
sq() { "$LTT" sql t --format=csv -e "$1" | tail -n +2; }
check "thread_states of 100 by state" "$(sq "SELECT state, sum(dur_ns) FROM thread_states WHERE tid = 100 GROUP BY state ORDER BY state" | tr '\n' ' ')" \
	"irq,1000 runnable,5000 sleeping,6000 syscall,3000 user,24000 "
check "causes" "$(sq "SELECT ts_ns - 1700000000000000000, state, cause FROM thread_states WHERE cause IS NOT NULL ORDER BY ts_ns, tid" | tr '\n' ' ')" \
	"1000,syscall,syscall_0 2000,sleeping,syscall_0 8000,runnable,woken 10000,syscall,syscall_0 10000,runnable,preempted 11500,syscall,syscall_1 13000,syscall,syscall_1 16000,runnable,new 17000,runnable,preempted 19000,runnable,preempted 29000,runnable,preempted "
check "syscalls" "$(sq "SELECT ts_ns - 1700000000000000000, dur_ns, tid, cpu, nr, ret FROM syscalls ORDER BY ts_ns" | tr '\n' ' ')" \
	"1000,10000,100,0,0,5 11500,2000,100,0,1,64 "
check "regions joined with syscalls" "$(sq "SELECT r.label, s.nr, max(s.dur_ns) FROM regions r JOIN syscalls s
	ON s.tid = r.tid AND s.ts_ns >= r.ts_ns AND s.end_ns <= r.ts_ns + r.dur_ns GROUP BY r.id" | tr '\n' ' ')" "wait,0,10000 "

# Chrome JSON: a lane of states per thread ("X" slices of category sched), one slice per interval
"$LTT" export --format=chrome-json -o c.json t || { echo "ltt export --format=chrome-json failed"; exit 1; }
check "chrome-json state lane of 100" "$(jq -r '[.traceEvents[] | select(.cat == "sched" and .tid == 1073741924)
	| "\(.name):\(.dur * 1000 | round)"] | join(" ")' c.json)" \
	"$(sq "SELECT state || ':' || dur_ns FROM thread_states WHERE tid = 100 ORDER BY ts_ns" | tr '\n' ' ' | sed 's/ $//')"
check "chrome-json state lane name" "$(jq -r '.traceEvents[] | select(.ph == "M" and .tid == 1073741924) | .args.name' c.json)" "100 state prog"
# bounded: at most LTT_EXPORT_STATES_MAX state slices, the rest counted in a global note (and on stderr)
LTT_EXPORT_STATES_MAX=5 "$LTT" export --format=chrome-json -o c5.json t 2> c5.err || { echo "chrome-json (bounded) failed"; exit 1; }
check "chrome-json bounded" "$(jq -r '[.traceEvents[] | select(.cat == "sched" and .ph == "X")] | length' c5.json) $(jq -r '.traceEvents[] | select(.cat == "ltt") | "\(.s) \(.args.ltt_states_not_drawn)"' c5.json)" \
	"5 g $(( $(sq "SELECT count(*) FROM thread_states") - 5 ))"
grep -q "^ltt export: [0-9]* kernel state intervals from here not drawn (at most 5 are)" c5.err || { echo "chrome-json bounded: stderr $(cat c5.err)"; fail=1; }

# SVG: a lane of states per thread, its exact totals (ns and intervals per state) in data-* attributes;
# bars by category (on CPU, interrupt, runnable, sleeping, blocked, other, not recorded), each pixel
# column showing the share of its time each held, stacked (a column split between on CPU and runnable
# has both, in proportion): the runs of thread 200 are whole columns of one category with the mixed
# columns at their edges between them; a whole column is the full bar height (11 pixels), a mixed
# one's bars add up to it
"$LTT" export --format=svg -o s.svg t || { echo "ltt export --format=svg failed"; exit 1; }
xmllint --noout s.svg || { echo "s.svg is not well-formed XML"; fail=1; }
lane() { xmllint --xpath "string(//*[local-name()='g'][@data-tid='$1']/@data-$2)" s.svg; }
check "svg lane of 100" "$(for k in user-ns user-n syscall-ns syscall-n irq-ns irq-n runnable-ns runnable-n sleeping-ns sleeping-n blocked-ns; do
	printf '%s ' "$(lane 100 $k)"; done)" "24000 4 3000 4 1000 1 5000 2 6000 1  "
check "svg intervals of 100 = thread_states'" "$(lane 100 user-n) $(lane 100 syscall-n) $(lane 100 runnable-n)" \
	"$(sq "SELECT count(*) FROM thread_states WHERE tid = 100 AND state IN ('user', 'syscall', 'runnable') GROUP BY state ORDER BY state DESC" | tr '\n' ' ' | sed 's/ $//')"
check "svg lane of 200" "$(lane 200 user-ns) $(lane 200 user-n) $(lane 200 runnable-ns) $(lane 200 runnable-n)" "18000 2 19000 2"
check "svg lane of 300" "$(lane 300 user-ns) $(lane 300 softirq-ns) $(lane 300 runnable-ns) $(lane 300 runnable-n)" "2500 500 11000 2"
check "svg bars of 200" "$(xmllint --xpath "//*[local-name()='g'][@data-tid='200']/*[local-name()='rect']" s.svg |
	sed 's/<rect x="\([0-9]*\)" y="[0-9]*" width="\([0-9]*\)" height="[0-9]*" fill="\([^"]*\)"\/>/\1+\2:\3 /g' | tr -d '\n')" \
	"241+1:#2b8a3e 242+204:#2b8a3e 446+1:#2b8a3e 446+1:#339af0 447+230:#339af0 677+1:#2b8a3e 677+1:#339af0 678+255:#2b8a3e 933+1:#2b8a3e 933+1:#339af0 934+256:#339af0 "
check "svg bar heights of 200" "$(xmllint --xpath "//*[local-name()='g'][@data-tid='200']/*[local-name()='rect']" s.svg |
	sed 's/<rect x="\([0-9]*\)" y="[0-9]*" width="\([0-9]*\)" height="\([0-9]*\)" fill="[^"]*"\/>/\1:\2:\3 /g' | tr -d '\n' |
	awk '{ for (i = 1; i <= NF; i++) { split($i, a, ":"); h[a[1]] += a[3]; n[a[1]]++; if (a[2] > 1 && a[3] != 11) bad++ }
		for (x in h) if (h[x] > 11 || (n[x] > 1 && h[x] != 11)) bad++; print bad + 0 }')" "0"
grep -q '>prog (100) states<' s.svg || { echo "svg: no lane named 'prog (100) states'"; fail=1; }
# drawn: chromium's picture has the running (user) and runnable colours
prof=$(mktemp -d)
timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
	--disable-component-update --disable-sync --user-data-dir="$prof" --screenshot="$work/s.png" --window-size=1200,500 \
	"file://$work/s.svg" > chromium.log 2>&1
rm -rf "$prof"
for c in 2b8a3e 339af0 ced4da; do
	[ "$("$BUILD/tests/progs/png_colors" s.png $c 2>/dev/null | awk '{ print $3 }')" -gt 100 ] 2>/dev/null ||
		{ echo "svg: colour #$c not drawn by chromium"; tail -n 3 chromium.log; fail=1; }
done
exit $fail
