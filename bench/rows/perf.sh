# SPDX-License-Identifier: MIT
# The rows of issue 17 (performance; sourced by bench/run.sh after its own rows):
#   - the event path against the floor (rdtsc + copy, bench_floor): the per-CPU path (restartable
#     sequences, the default where rseq works) and the locked path (LTT_RSEQ=0), 1 and 2 threads;
#   - the resident memory of a traced program with default ring settings against LTTng-UST's with its
#     default channel, measured on this machine's CPUs, and computed for 64 CPUs from the layouts;
#   - ltt dump text and JSON with the parallel formatting (--threads, toolkit/par*.c) against one process.
# Keys start with perf- (BENCH_ONLY=perf runs only these).

# run_perf_rec MODE KIND THREADS [ENV=VALUE...]: bench_ltt recording, rings of the other recording rows.
run_perf_rec() {
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built (see $B/build.log)"; return; }
	mode=$1 kind=$2 th=$3
	shift 3
	out=$W/perf-rec
	rm -rf "$out"
	if ! env "$@" LTT_TRACE="$out" LTT_MODE="$mode" LTT_BLOCK_SIZE="$BLOCK" LTT_BLOCKS="$NBLOCKS" \
		LTT_SNAPSHOT_AT_EXIT=0 "$LTT_PROG" "$kind" "$th" "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_ltt failed: $(head -n 1 "$T/err")"
		rm -rf "$out"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	rm -rf "$out"
}

P17="Issue 17: the event path against the floor (ns per event per thread; ltt/peer = ltt / floor)"
for th in 1 2; do
	t="$th thread"; [ "$th" = 2 ] && t="$th threads"
	measure "perf-floor-int3-${th}t" "$P17" "floor: rdtsc + copy, int3, $t" ns - run_prog "$FLOOR" int3 "$th"
	measure "perf-floor-str-${th}t" "$P17" "floor: rdtsc + copy, str, $t" ns - run_prog "$FLOOR" str "$th"
	for mode in flight discard; do
		measure "perf-$mode-int3-${th}t" "$P17" "ltt: $mode, int3, $t, per-CPU (rseq)" ns \
			"perf-floor-int3-${th}t" run_perf_rec "$mode" int3 "$th"
		measure "perf-$mode-int3-locked-${th}t" "$P17" "ltt: $mode, int3, $t, locked (LTT_RSEQ=0)" ns \
			"perf-floor-int3-${th}t" run_perf_rec "$mode" int3 "$th" LTT_RSEQ=0
	done
	measure "perf-flight-str-${th}t" "$P17" "ltt: flight, str, $t, per-CPU (rseq)" ns \
		"perf-floor-str-${th}t" run_perf_rec flight str "$th"
done

# ---- resident memory ------------------------------------------------------------------------------
# max_rss_mib CMD...: runs CMD under /usr/bin/time; RUN_VAL = its maximum resident set in MiB.
max_rss_mib() {
	if [ ! -x /usr/bin/time ]; then RUN_ERR="/usr/bin/time not installed"; return; fi
	if ! /usr/bin/time -f 'maxrss_kib=%M' -o "$T/rss" "$@" > "$T/out" 2> "$T/err"; then
		RUN_ERR="$(basename "$1") failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(sed -n 's/^maxrss_kib=\([0-9]*\)$/\1/p' "$T/rss" | awk '{ printf "%.1f", $1 / 1024 }')
}

# run_mem_ltt: bench_ltt int3 on every CPU (one thread each), default LTT_BLOCK_SIZE / LTT_BLOCKS,
# enough events to fill every block of its ring.
run_mem_ltt() {
	out=$W/perf-mem
	rm -rf "$out"
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built"; return; }
	mode=${1:-discard}
	[ $# -gt 0 ] && shift
	max_rss_mib env LTT_TRACE="$out" LTT_MODE="$mode" LTT_SNAPSHOT_AT_EXIT=0 "$@" "$LTT_PROG" int3 "$ncpu" \
		"$MEM_EVENTS"
	rm -rf "$out"
}

run_mem_ltt_off() {
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built"; return; }
	max_rss_mib "$LTT_PROG" int3 "$ncpu" "$MEM_EVENTS"
}

# run_mem_lttng: bench_lttng under a session with LTTng's default channel (lttng enable-event -u
# without a channel: its default sub-buffer size and count).
run_mem_lttng() {
	[ -z "$LTTNG_NA" ] || { RUN_ERR=$LTTNG_NA; return; }
	LTTNG_SEQ=$((LTTNG_SEQ + 1))
	s=ltt-bench-$$-$LTTNG_SEQ
	out=$W/perf-mem-lttng
	rm -rf "$out"
	if ! lttng create "$s" --output="$out" > "$T/lttng.out" 2>&1; then
		RUN_ERR="lttng create failed: $(head -n 1 "$T/lttng.out")"
		return
	fi
	LTTNG_SESSION=$s
	if ! lttng enable-event -u -s "$s" 'ltt_bench:*' > "$T/lttng.out" 2>&1 ||
	   ! lttng start "$s" > "$T/lttng.out" 2>&1; then
		RUN_ERR="lttng session setup failed: $(head -n 1 "$T/lttng.out")"
		lttng_destroy
		return
	fi
	lttng list "$s" > "$T/lttng.list" 2>&1
	max_rss_mib "$LTTNG_PROG" int3 "$ncpu" "$MEM_EVENTS"
	lttng_stop
	sub=$(sed -n 's/.*[Ss]ub-buffer size: *\([0-9]*\).*/\1/p' "$T/lttng.list" | head -n 1)
	num=$(sed -n 's/.*[Ss]ub-buffer count: *\([0-9]*\).*/\1/p' "$T/lttng.list" | head -n 1)
	[ -n "$sub" ] && LTTNG_DEFAULT_RING="$num x $sub bytes" && LTTNG_SUB=$sub LTTNG_NUM=$num
	RUN_NOTE="default channel: ${LTTNG_DEFAULT_RING:-?} per CPU"
	rm -rf "$out"
}

# ltt_region_mib NCPU BLOCK_SIZE BLOCKS: resident MiB of ltt's region (doc/recorder.md "Memory") when
# every CPU ring has wrapped: the header pages (region and ring structures, commit words, bases) and
# the NCPU CPU rings' blocks. The 4 control rings hold what their events use (their blocks are sealed
# without writing the unused tail): a few pages each, in the measured row, not counted here.
ltt_region_mib() {
	awk -v c="$1" -v bs="$2" -v n="$3" 'BEGIN {
		r = c + 4; hdr = 128 + r * 384; hdr = int((hdr + 63) / 64) * 64
		hdr += r * n * 8; hdr = int((hdr + 63) / 64) * 64; hdr += r * n * 4
		hdr = int((hdr + 4095) / 4096) * 4096
		printf "%.1f", (hdr + c * n * bs) / 1048576 }'
}

# The default rings: the budget of recorder/budget.h (32 MiB of CPU rings whatever the CPU count: on 64
# CPUs 4 blocks of 128 KiB each, tests/unit/test_budget.c), both modes; LTT_BLOCKS=N: N x 1 MiB a CPU.
run_mem_ltt64() {
	if [ -n "${1:-}" ]; then b=$1 bs=1048576; else b=4 bs=131072; fi
	RUN_VAL=$(ltt_region_mib 64 $bs "$b")
	RUN_NOTE="computed: 64 CPU rings x $b x $((bs / 1024)) KiB when every ring has wrapped, plus the header; control rings: the few pages they use (a CPU ring is touched only as threads on that CPU fill it)"
}

run_mem_lttng64() {
	if [ -z "${LTTNG_SUB:-}" ]; then RUN_ERR="LTTng's default channel size unknown (the measured row did not run)"; return; fi
	RUN_VAL=$(awk -v s="$LTTNG_SUB" -v n="$LTTNG_NUM" 'BEGIN { printf "%.1f", 64 * s * n / 1048576 }')
	RUN_NOTE="computed: 64 x $LTTNG_NUM x $LTTNG_SUB bytes (per-user buffers; metadata and shm overhead not counted)"
}

# run_mem_ltt_fake NCPU [ENV=VALUE...]: run_mem_ltt (discard) with NCPU CPUs configured: a private mount
# namespace binds a /sys/devices/system/cpu of NCPU cpuN entries (sysconf(_SC_NPROCESSORS_CONF) sizes the
# region), while the threads run on this machine's CPUs (tests/e2e/recorder_memory_cpus.sh): what a
# many-CPU server costs a program whose threads record on $ncpu of its CPUs. Root only.
run_mem_ltt_fake() {
	[ "$(id -u)" = 0 ] || { RUN_ERR="faking the CPU count needs root (a mount namespace)"; return; }
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built"; return; }
	n=$1
	shift
	d=$T/cpus$n
	if [ ! -d "$d" ]; then
		i=0
		while [ $i -lt "$n" ]; do mkdir -p "$d/cpu$i"; i=$((i + 1)); done
		echo "0-$((n - 1))" > "$d/possible"; echo "0-$((n - 1))" > "$d/present"
		cat /sys/devices/system/cpu/online > "$d/online"
	fi
	out=$W/perf-mem
	rm -rf "$out"
	max_rss_mib unshare -m sh -c 'mount --bind "$0" /sys/devices/system/cpu && exec "$@"' "$d" \
		env LTT_TRACE="$out" LTT_MODE=discard "$@" "$LTT_PROG" int3 "$ncpu" "$MEM_EVENTS"
	RUN_NOTE="$n CPUs configured (faked), $ncpu recording: only their rings are resident"
	rm -rf "$out"
}

MEM_EVENTS=${BENCH_MEM_EVENTS:-2000000}
M17="Issue 17: resident memory of a traced program, default ring settings (MiB, lower is better)"
measure perf-mem-off "$M17" "bench program, not recording ($ncpu threads)" MiB - run_mem_ltt_off
measure perf-mem-lttng "$M17" "lttng: default channel ($ncpu CPUs, measured)" MiB - run_mem_lttng
measure perf-mem-ltt "$M17" "ltt: default rings ($ncpu CPUs, measured)" MiB perf-mem-lttng run_mem_ltt
measure perf-mem-ltt-flight "$M17" "ltt: flight mode default rings ($ncpu CPUs)" MiB perf-mem-lttng \
	run_mem_ltt flight
measure perf-mem-ltt-4 "$M17" "ltt: LTT_BLOCKS=4 ($ncpu CPUs, measured)" MiB perf-mem-lttng \
	run_mem_ltt discard LTT_BLOCKS=4
measure perf-mem-lttng64 "$M17" "lttng: default channel, 64 CPUs (computed)" MiB - run_mem_lttng64
measure perf-mem-ltt64 "$M17" "ltt: default rings, 64 CPUs (computed)" MiB perf-mem-lttng64 run_mem_ltt64
measure perf-mem-ltt64-4 "$M17" "ltt: LTT_BLOCKS=4, 64 CPUs (computed)" MiB perf-mem-lttng64 run_mem_ltt64 4
measure perf-mem-ltt64-fake "$M17" "ltt: default rings, 64 CPUs configured, $ncpu recording (measured)" MiB \
	perf-mem-lttng run_mem_ltt_fake 64
measure perf-mem-ltt64-16-fake "$M17" "ltt: LTT_BLOCKS=16 (1 GiB of rings), 64 CPUs configured, $ncpu recording (measured)" \
	MiB perf-mem-lttng run_mem_ltt_fake 64 LTT_BLOCKS=16 LTT_BLOCK_SIZE=1M

# ---- reading in parallel (17.2): stats by block ranges in threads, dump with --threads --------------
# perf_read_traces: the reading rows' traces (ltt: ltt_read_trace, LTTng: lttng_read_trace), recorded
# here when BENCH_ONLY left out the rows that record them.
perf_read_traces() {
	o=$ONLY; ONLY=
	[ -n "$LTT_READ" ] || [ -n "$LTT_READ_NA" ] || ltt_read_trace
	[ -n "$LTTNG_READ" ] || [ -n "$BT2_NA" ] || want_bt2_trace
	ONLY=$o
}
want_bt2_trace() { lttng_read_trace; }

# run_read_threads N stats|json|text: ltt stats / ltt dump --threads=N on the reading rows' trace
run_read_threads() {
	perf_read_traces
	[ -z "$LTT_READ_NA" ] || { RUN_ERR="no ltt trace to read: $LTT_READ_NA"; return; }
	cmd=dump; [ "$2" = stats ] && cmd=stats
	if ! "$LTT" $cmd --help 2>&1 | grep -q -- '--threads'; then
		RUN_ERR="ltt $cmd has no --threads option"
		return
	fi
	case $2 in
	stats) run_cmd_rate "$LTT_READ_EVENTS" "$LTT" stats --threads="$1" "$LTT_READ" ;;
	json) run_cmd_rate "$LTT_READ_EVENTS" "$LTT" dump --threads="$1" --format=json "$LTT_READ" ;;
	text) run_cmd_rate "$LTT_READ_EVENTS" "$LTT" dump --threads="$1" "$LTT_READ" ;;
	esac
}

run_read_bt2() {
	perf_read_traces
	run_bt2 dummy
}

R17="Issue 17.2: reading $EVENTS int3 events in parallel (M events/s; ltt/peer: stats against babeltrace2 (target 20), --threads=N against --threads=1; dump target 20 M events/s)"
measure perf-read-bt2 "$R17" "babeltrace2 --output-format=dummy" "Mev/s" - run_read_bt2
measure perf-read-stats-1 "$R17" "ltt stats, --threads=1" "Mev/s" perf-read-bt2 run_read_threads 1 stats
measure perf-read-stats-n "$R17" "ltt stats, --threads=$ncpu (default)" "Mev/s" perf-read-bt2 \
	run_read_threads "$ncpu" stats
for what in json text; do
	# the default is $ncpu - 1 workers from 3 CPUs on, one process below (toolkit/par.c)
	measure "perf-read-$what-1" "$R17" "ltt dump $what, --threads=1" "Mev/s" - run_read_threads 1 "$what"
	measure "perf-read-$what-n" "$R17" "ltt dump $what, --threads=$ncpu" "Mev/s" "perf-read-$what-1" \
		run_read_threads "$ncpu" "$what"
done
