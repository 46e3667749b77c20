# SPDX-License-Identifier: MIT
# Rows of the scheduling analysis (issue 25; doc/cli.md "ltt stats --sched"), sourced by bench/run.sh:
# a kernel trace of EVENTS events written by tests/progs/mktrace (the kernel facility: on 2 CPUs, 8
# threads taking turns, each run a few system calls, wakeups and an interrupt), then
# - ltt stats --sched over it (M events/s);
# - ltt export --format=lttng of it (M events/s), and lttng-cputop (python3-lttnganalyses) over that
#   export (M events/s), the peer reading the same events.
MK=$BUILD/tests/progs/mktrace
SCHED_TRACE=$W/sched-trace

sched_trace() {
	[ -x "$MK" ] || { SCHED_NA="tests/progs/mktrace not built (make check builds it)"; return; }
	[ -f "$SRCDIR/eventdefs/kernel.xml" ] || { SCHED_NA="no eventdefs/kernel.xml"; return; }
	rm -rf "$SCHED_TRACE"
	# a run of 10 events: switch in, 3 x (syscall entry, exit), irq entry, exit, wakeup of the next
	awk -v n="$EVENTS" 'BEGIN {
		c = 1000; prev[0] = 0; prev[1] = 0
		for (i = 0; i < n / 10; i++) {
			cpu = i % 2; t = 100 + i % 8; nx = 100 + (i + 1) % 8
			printf "ev %d %d kernel.schedchange %d %d %d 1 120 120 p%d p%d\n", cpu, c += 300, prev[cpu], prev[cpu], t, prev[cpu], t
			for (k = 0; k < 3; k++) {
				printf "ev %d %d kernel.syscall_entry %d %d 0 0 0 0 0 0\n", cpu, c += 200, t, k
				printf "ev %d %d kernel.syscall_exit %d %d 0\n", cpu, c += 500, t, k
			}
			printf "ev %d %d kernel.irq_entry %d 9 eth0\n", cpu, c += 100, t
			printf "ev %d %d kernel.irq_exit %d 9 1\n", cpu, c += 400, t
			printf "ev %d %d kernel.process %d wakeup %d 0 120 p%d\n", cpu, c += 100, nx, cpu, nx
			prev[cpu] = t
		}
	}' > "$T/sched.script"
	"$MK" -o "$SCHED_TRACE" -c 2 -b 1048576 -f "$SRCDIR/eventdefs/kernel.xml" -s "$T/sched.script" \
		> /dev/null 2> "$T/err" || { SCHED_NA="mktrace failed: $(head -n 1 "$T/err")"; return; }
	rm -f "$T/sched.script"
	SCHED_EVENTS=$((EVENTS / 10 * 10))
}

run_lttng_export() {
	rm -rf "$W/sched.lttng"
	run_cmd_rate "$SCHED_EVENTS" "$LTT" export --format=lttng -o "$W/sched.lttng" "$SCHED_TRACE"
}

run_cputop() {
	command -v lttng-cputop > /dev/null || { RUN_ERR="lttng-cputop not installed (python3-lttnganalyses)"; return; }
	[ -d "$W/sched.lttng" ] || "$LTT" export --format=lttng -o "$W/sched.lttng" "$SCHED_TRACE" > /dev/null 2>&1
	run_cmd_rate "$SCHED_EVENTS" lttng-cputop --skip-validation --no-progress "$W/sched.lttng"
}

KR="Kernel analysis over $EVENTS kernel events (M events/s, higher is better)"
SCHED_NA=
if want sched; then
	sched_trace
fi
if [ -z "$SCHED_NA" ] && want sched; then
	measure sched-lttng-cputop "$KR" "lttng-cputop over the lttng export" "Mev/s" - run_cputop
	measure sched-stats "$KR" "ltt stats --sched" "Mev/s" sched-lttng-cputop \
		run_cmd_rate "$SCHED_EVENTS" "$LTT" stats --sched "$SCHED_TRACE"
	measure sched-export-lttng "$KR" "ltt export --format=lttng" "Mev/s" - run_lttng_export
else
	for k in sched-lttng-cputop sched-stats sched-export-lttng; do
		na "$k" "$KR" "$k" "Mev/s" - "${SCHED_NA:-not selected}"
	done
fi
rm -rf "$SCHED_TRACE" "$W/sched.lttng"
