#!/bin/sh
# SPDX-License-Identifier: MIT
# A CPU's ring costs memory only once a thread records on that CPU (doc/recorder.md "Memory"), on a
# machine faking many CPUs: sysconf(_SC_NPROCESSORS_CONF), which sizes the region, reads
# /sys/devices/system/cpu; a private mount namespace binds a directory of 64 (256) cpuN entries there,
# while the program still runs on this machine's CPUs. With explicit rings of 16 x 1 MiB per CPU (1 GiB
# of CPU rings' address space at 64 CPUs, 4 GiB at 256), a flight program filling its rings from two
# threads (tests/progs/stress_emit, moving over the online CPUs) is resident for the rings of the CPUs
# it ran on and a little more (the bounds of tests/e2e/recorder_memory.sh), not for 64 or 256; with the
# default budget at 64 CPUs (4 x 128 KiB a ring) for those rings' 1 MiB. The snapshot taken at exit
# says 64 CPUs, holds tracefiles of the online CPUs only, and checks clean; so does the trace `ltt
# recover` rebuilds from the rings' file (LTT_SHM_DIR) of a process killed with 62 rings never used.
set -u
case "${SANITIZE:-}" in *thread*) echo "skip: resident sizes under ThreadSanitizer include its shadow memory"; exit 77 ;; esac
[ "$(id -u)" = 0 ] || { echo "skip: faking the CPU count needs a mount namespace (root)"; exit 77; }
. "$SRCDIR/tests/e2e/lib/common.sh"
. "$SRCDIR/tests/e2e/lib/registry.sh"
P="$BUILD/tests/progs"
on=$(nproc)
online=$(cat /sys/devices/system/cpu/online)
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; reg_forget "$work/r"; rm -rf "$work"' EXIT

# fake N CMD...: CMD with N CPUs configured (the online ones unchanged)
fake() {
	n=$1
	shift
	d=$work/cpus$n
	if [ ! -d "$d" ]; then
		i=0
		while [ $i -lt "$n" ]; do mkdir -p "$d/cpu$i"; i=$((i + 1)); done
		echo "0-$((n - 1))" > "$d/possible"; echo "0-$((n - 1))" > "$d/present"; echo "$online" > "$d/online"
	fi
	unshare -m sh -c 'mount --bind "$0" /sys/devices/system/cpu && exec "$@"' "$d" "$@"
}
got=$(fake 64 getconf _NPROCESSORS_CONF) || { echo "cannot fake the CPU count (unshare -m, mount --bind)"; exit 1; }
[ "$got" = 64 ] || { echo "faked 64 CPUs, the program sees $got"; exit 1; }

rss() { "$P/reliab_maxrss" "$@" 2>&1 >/dev/null | sed -n 's/^maxrss_kib=//p'; }
base=$(rss "$P/stress_emit" 2 1500000)
# at_most NAME KIB MIB: KIB over the untraced program is at most MIB + 6 MiB (and, when the two threads
# surely filled the rings of this machine's CPUs, at least MIB - 2)
at_most() {
	[ -n "$2" ] || { echo "$1: no figure"; fail=1; return; }
	over=$(($2 - base)) hi=$((($3 + 6) * 1024)) lo=$((($3 - 2) * 1024))
	echo "$1: $over KiB over the untraced program (rings of the CPUs that recorded: $3 MiB)"
	[ "$over" -le "$hi" ] || { echo "$1: more than $hi KiB: rings of CPUs that never recorded are resident"; fail=1; }
	[ "$on" -gt 4 ] || [ "$over" -ge "$lo" ] || { echo "$1: less than $lo KiB: the rings were not filled"; fail=1; }
}
for n in 64 256; do
	rm -rf "$work/t$n"
	v=$(fake $n "$P/reliab_maxrss" env LTT_TRACE="$work/t$n" LTT_MODE=flight LTT_BLOCKS=16 LTT_BLOCK_SIZE=1M \
		"$P/stress_emit" 2 1500000 2>&1 >/dev/null | sed -n 's/^maxrss_kib=//p')
	s=$(ls -d "$work/t$n"/snapshot-* 2>/dev/null | tail -n 1)
	[ -n "$s" ] || { echo "$n CPUs: no snapshot at exit"; fail=1; continue; }
	"$LTT" stats "$s" | grep -q "little endian, $n CPUs," || { echo "$n CPUs: the snapshot does not say $n CPUs"; fail=1; }
	# the CPUs that recorded: the online ones the scheduler ran the two threads on (on a loaded
	# machine both may stay on one CPU the whole run), never one of the faked ones
	used=0
	for f in $(cd "$s/cpu" && ls); do
		[ "$f" -lt "$on" ] || { echo "$n CPUs: the snapshot holds cpu/$f, a CPU that never ran the program"; fail=1; }
		used=$((used + 1))
	done
	[ "$used" -ge 1 ] || { echo "$n CPUs: the snapshot holds no CPU tracefile"; fail=1; }
	at_most "$n CPUs configured, 16 x 1 MiB rings" "$v" $((used * 16))
	"$LTT" check "$s" > /dev/null || { echo "$n CPUs: ltt check of the snapshot failed"; fail=1; }
done
v=$(fake 64 "$P/reliab_maxrss" env LTT_TRACE="$work/d64" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0 \
	"$P/stress_emit" 2 1500000 2>&1 >/dev/null | sed -n 's/^maxrss_kib=//p')
[ -n "$v" ] && [ $((v - base)) -le $((on * 512 + 6 * 1024)) ] ||
	{ echo "64 CPUs, default budget: ${v:-no figure} KiB (untraced $base): more than the rings of $on CPUs (512 KiB each) + 6 MiB"; fail=1; }
echo "64 CPUs configured, default budget (4 x 128 KiB rings): $((${v:-0} - base)) KiB over the untraced program"

# the rings' file of a process killed on a 64-CPU machine: only the rings used are recovered
mkdir "$work/shm"
LTT_TRACE="$work/r" LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 LTT_SHM_DIR="$work/shm" \
	fake 64 "$P/flight_prog" spin "$work/progress" &
pid=$!
i=0
while [ $i -lt 200 ]; do
	[ -s "$work/progress" ] && [ "$(od -An -tu8 -j8 -N8 "$work/progress" | tr -d ' ')" = 1 ] && break
	sleep 0.05; i=$((i + 1))
done
sleep 0.3
# the child of unshare's sh is the program (exec): kill the whole group of the background job
prog=$(pgrep -P $pid)
kill -9 $pid $prog 2>/dev/null
wait $pid 2>/dev/null
pid=
# the program was the background job's child: once killed, it is reaped by whoever adopts it, which
# under load may come later than wait's return (ltt recover then says "process still running")
i=0
for p in $prog; do
	while kill -0 "$p" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
done
ring=$(ls "$work"/shm/ltt-*.ring) || { echo "no ring file under LTT_SHM_DIR"; exit 1; }
rec=$("$LTT" recover "$ring" -o "$work/rec" 2>&1) || { echo "ltt recover failed: $rec"; exit 1; }
"$LTT" check "$work/rec" > /dev/null || { echo "ltt check: the recovered trace is not valid"; fail=1; }
"$LTT" stats "$work/rec" | grep -q "little endian, 64 CPUs," || { echo "recovered: not 64 CPUs"; fail=1; }
n=$(ls "$work/rec/cpu" | wc -l)
[ "$n" -ge 1 ] && [ "$n" -le "$on" ] || { echo "recovered: $n CPU tracefiles, want 1 to $on"; fail=1; }
out=$("$P/flight_prog" check "$work/rec")
echo "recovered: $n CPU tracefiles; $out"
case "$out" in *" problems=0 bad=0 "*" gaps=0 "*) ;; *) echo "recovered trace: problems, garbage or gaps"; fail=1 ;; esac
exit $fail
