# SPDX-License-Identifier: MIT
# Rows of kernel events (issue 24; doc/recorder.md "Kernel events"), sourced by bench/run.sh:
# 1 M getppid() calls (bench_getppid; 200 k with BENCH_QUICK=1), wall time of the whole run in ms:
#   kern-untraced   not recording
#   kern-ltt        ltt record --kernel=syscalls (default buffers; the row's lost column: kernel events
#                   lost, from ltt stats)
#   kern-perf       perf record -e raw_syscalls:sys_enter,raw_syscalls:sys_exit, its file on the same
#                   disk ($W)
# The goal: ltt costs no more than perf per call, and loses nothing at that rate (root: the tracepoints).
K="Kernel events: $([ "$QUICK" = 1 ] && echo 200000 || echo 1000000) getppid() calls"
KERN_PROG=$B/bench_getppid
KERN_N=1000000
[ "$QUICK" = 1 ] && KERN_N=200000

# run_kern MODE: one run, the figure its wall time in ms
run_kern() {
	[ -x "$KERN_PROG" ] || { RUN_ERR="bench_getppid not built (see $B/build.log)"; return; }
	rm -rf "$W/kern-t" "$W/kern-perf.data"
	t0=$(now_ns)
	case $1 in
	untraced) "$KERN_PROG" "$KERN_N" > "$T/out" 2> "$T/err" ;;
	ltt) "$LTT" record -o "$W/kern-t" --kernel=syscalls -- "$KERN_PROG" "$KERN_N" > "$T/out" 2> "$T/err" ;;
	perf) perf record -q -o "$W/kern-perf.data" -e raw_syscalls:sys_enter,raw_syscalls:sys_exit -- \
		"$KERN_PROG" "$KERN_N" > "$T/out" 2> "$T/err" ;;
	esac
	rc=$?
	t1=$(now_ns)
	[ $rc = 0 ] || { RUN_ERR="$1 failed: $(head -n 1 "$T/err")"; return; }
	RUN_VAL=$(awk -v d="$((t1 - t0))" 'BEGIN { printf "%.1f", d / 1e6 }')
	if [ "$1" = ltt ]; then
		RUN_LOST=$("$LTT" stats "$W/kern-t" | sed -n 's/.* kernel \([0-9]*\), unknown.*/\1/p')
		grep -q 'ltt_kernel_missing=""' "$W/kern-t/info/system.xml" 2>/dev/null ||
			RUN_NOTE="tracepoints missing (not root?)"
	fi
	rm -rf "$W/kern-t" "$W/kern-perf.data"
}

measure kern-untraced "$K" "getppid() calls, not recording" ms - run_kern untraced
measure kern-ltt "$K" "ltt record --kernel=syscalls" ms - run_kern ltt
if command -v perf > /dev/null; then
	measure kern-perf "$K" "perf record -e raw_syscalls:sys_enter,sys_exit (same disk)" ms - run_kern perf
else
	na kern-perf "$K" "perf record -e raw_syscalls:*" ms - "perf not installed (linux-perf, make deps)"
fi
