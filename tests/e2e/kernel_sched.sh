#!/bin/sh
# SPDX-License-Identifier: MIT
# Kernel events (doc/recorder.md "Kernel events", doc/format.md section 13), as root: a program with a
# sleeping thread (10 sleeps of 50 ms), a thread making exactly 2000 write()s of 64 bytes to /dev/null,
# each between two user events, and a spinning thread. Every write is a syscall_entry (number 1, third
# argument 64) and a syscall_exit (return 64) of the writer's tid, strictly between its two user
# events in merged time order (all 2000); the sleeper's switch-outs in a sleeping state are at least
# 10 and its off-CPU intervals after them sum to 500 ms within 10%; each thread's context switches in
# the trace equal its own getrusage(RUSAGE_THREAD) ru_nvcsw + ru_nivcsw within 3; ltt check is clean.
set -u
prog="$BUILD/tests/progs/kernel_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
[ "$(id -u)" = 0 ] || { echo "skip: needs root (CI runs as root; tests/e2e/kernel_user.sh is the ordinary user's)"; exit 77; }
tmp=$(mktemp -d /tmp/ltt-e2e-kernel-sched-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

LTT_TRACE="$tmp/t" LTT_KERNEL=sched,syscalls "$prog" run 2000 > "$tmp/out" 2> "$tmp/err" || fail "run: $(cat "$tmp/err")"
[ -s "$tmp/err" ] && fail "stderr as root: $(cat "$tmp/err")"
"$LTT" check "$tmp/t" > "$tmp/check" || fail "ltt check: $(cat "$tmp/check")"
grep -q 'ltt_kernel="raw_syscalls:sys_enter,raw_syscalls:sys_exit,sched:sched_switch' "$tmp/t/info/system.xml" ||
	fail "system.xml: $(grep ltt_kernel "$tmp/t/info/system.xml")"
"$LTT" dump "$tmp/t" > "$tmp/dump" || fail "dump"
writer=$(sed -n 's/^writer tid=\([0-9]*\) .*/\1/p' "$tmp/out")
sleeper=$(sed -n 's/^sleeper tid=\([0-9]*\) .*/\1/p' "$tmp/out")

# the writes, in merged order: before(i) < entry < exit < after(i), on the writer's tid; a write that
# returned with nothing else on its CPU between is one kernel.syscall (doc/format.md section 13)
res=$(awk -v W="$writer" '
	function tidof(l) { if (match(l, /\{ tid = [0-9]+/)) return substr(l, RSTART + 8, RLENGTH - 8); return "" }
	tidof($0) != W { next }
	/^app\.data_int: .*key = "before"/ { if (st != 0) bad++; st = 1; next }
	/^kernel\.syscall_entry: .*syscall_id = 1 \(write\), args = \[ [0-9]+, [0-9]+, 64,/ { if (st != 1) bad++; st = 2; next }
	/^kernel\.syscall_exit: .*syscall_id = 1 \(write\), ret = 64 }/ { if (st != 2) bad++; st = 3; next }
	/^kernel\.syscall: .*syscall_id = 1 \(write\), cycles = [0-9]+, ret = 64, args = \[ [0-9]+, [0-9]+, 64 \]/ {
		if (st != 1) bad++; st = 3; whole++; next }
	/^app\.data_int: .*key = "after"/ { if (st != 3) bad++; else ok++; st = 0; next }
	END { printf "ok=%d bad=%d whole=%d\n", ok, bad, whole }' "$tmp/dump")
case $res in "ok=2000 bad=0 "*) ;; *) fail "writes: $res" ;; esac

# the sleeper: switch-outs sleeping, and the time until it is back on a CPU
res=$(awk -v S="$sleeper" '
	function ts(l) { split(l, a, " "); return a[2] }
	/^kernel\.schedchange: / && $0 ~ ("out = " S ", ") {
		if (match($0, /out_state = [0-9]+/)) { st = substr($0, RSTART + 12, RLENGTH - 12) + 0
			if (st % 4 != 0) { n++; out = ts($0) } }
		next }
	/^kernel\.thread_switch: / && $0 ~ ("tid = " S " ") && /direction = in/ {
		if (out != "") { sum += ts($0) - out; out = "" } }
	END { printf "%d %d\n", n, sum * 1000 }' "$tmp/dump")
set -- $res
[ "$1" -ge 10 ] || fail "sleeper: $1 sleeping switch-outs, 10 expected at least"
# off CPU from each switch-out to the switch-in: the 500 ms asleep, and under load the waits for a CPU
# after the timers (in process scope a timer's wakeup is not recorded, doc/cli.md): up to the sleeps'
# own wall time
wall=$(sed -n 's/^sleeper_wall_ms=\([0-9]*\)$/\1/p' "$tmp/out")
[ "$2" -ge 450 ] && [ "$2" -le $((${wall:-500} * 11 / 10)) ] ||
	fail "sleeper: off CPU $2 ms, 500 ms - 10% to its wall time ${wall:-?} ms + 10% expected"

# each thread's switches against its own getrusage
while read -r name tidf sw; do
	[ "$name" = done ] && continue
	tid=${tidf#tid=}
	want=${sw#switches=}
	got=$(awk -v T="$tid" '
		/^kernel\.schedchange: / && $0 ~ ("out = " T ", ") { n++ }
		/^kernel\.thread_switch: / && $0 ~ ("tid = " T " ") && /direction = out/ { n++ }
		END { print n + 0 }' "$tmp/dump")
	d=$((got - want)); [ $d -lt 0 ] && d=$((-d))
	[ $d -le 3 ] || fail "$name: $got switches in the trace, getrusage says $want"
done < "$tmp/out"
echo "ok: 2000 writes in order, sleeper $1 sleeps $2 ms, switch counts match"
