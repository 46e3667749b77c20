# SPDX-License-Identifier: MIT
# Rows of the recorder's I/O (issues 17.3, 17.4, 19; doc/recorder.md "Flush", "Rotation", "Full disk"),
# sourced by bench/run.sh. The traces go to $W (the bench's work directory: the file system measured).
#  - the raw bandwidth of that file system for 1 MiB O_DIRECT writes (dd), in the same run, and the
#    consumer's sustained write bandwidth: bench_io floods int3 events for IO_SECONDS (the consumer
#    and the disk are the bottleneck), MB of blocks in the cpu tracefiles over the time from the
#    threads' release to the end of ltt_stop() (every block written); the ratio is consumer / raw;
#  - the highest event rate one thread sustains without loss: bench_io paced at a rate, bisected
#    until no event is lost over IO_SECONDS (each run checked: trace + lost = emitted);
#  - bytes on disk per int3 event, allocated (st_blocks) and apparent, of the 1 M-event trace;
#  - ns/event with rotation every 64 MiB against the same row without it;
#  - CPU time of a traced program idle for a few seconds (consumer asleep, flush timer) against not
#    recording.

IO="Recorder I/O: disk bandwidth, bytes on disk, rotation, idle cost"
IDLE_PROG=$B/bench_idle
IO_PROG=$B/bench_io
IO_SECONDS=2	# each flooding or paced run
[ "$QUICK" = 1 ] && IO_SECONDS=1
IO_MB=512	# MiB written by the raw bandwidth row

# alloc_bytes DIR: allocated bytes (st_blocks x 512) of the files under DIR
alloc_bytes() { find "$1" -type f -exec stat -c '%b %B' {} + 2>/dev/null | awk '{ s += $1 * $2 } END { print s + 0 }'; }

run_io_raw() {
	f=$W/io-raw
	rm -f "$f"
	t0=$(now_ns)
	if ! dd if=/dev/zero of="$f" bs=1M count=$IO_MB oflag=direct 2> "$T/err"; then
		RUN_ERR="dd oflag=direct failed: $(head -n 1 "$T/err")"
		rm -f "$f"
		return
	fi
	t1=$(now_ns)
	rm -f "$f"
	RUN_VAL=$(awk -v b=$((IO_MB * 1048576)) -v d=$((t1 - t0)) 'BEGIN { printf "%.1f", b / d * 1e3 }')
}

# bench_io_run THREADS RATE [ENV=V...]: one bench_io run into $W/io-cons (kept for the caller, who
# removes it); sets IO_EMITTED, IO_NS, IO_CONS_MS, IO_BYTES (of cpu/), the counts (ltt_count) and
# RUN_NOTE when the trace is not exactly what was emitted; RUN_ERR on failure.
bench_io_run() {
	[ -x "$IO_PROG" ] || { RUN_ERR="bench_io not built (see $B/build.log)"; return; }
	th=$1 rate=$2
	shift 2
	out=$W/io-cons
	rm -rf "$out"
	if ! env "$@" LTT_TRACE=$out LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS \
		"$IO_PROG" "$th" "$IO_SECONDS" "$rate" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_io failed: $(head -n 1 "$T/err")"
		rm -rf "$out"
		return
	fi
	eval "$(sed -n 's/^emitted=\([0-9]*\) record_ns=\([0-9]*\) consumer_cpu_ms=\([0-9.]*\)$/IO_EMITTED=\1 IO_NS=\2 IO_CONS_MS=\3/p' "$T/out")"
	[ -n "${IO_NS:-}" ] || { RUN_ERR="bench_io printed nothing"; rm -rf "$out"; return; }
	IO_BYTES=$(bytes "$out"/cpu)
	ltt_count "$out"
	ltt_check_note "$IO_EMITTED" discard
}

# run_io_consumer THREADS [ENV=V...]: MB/s of blocks written while THREADS threads flood
run_io_consumer() {
	th=$1
	shift
	IO_NS=
	bench_io_run "$th" 0 "$@"
	rm -rf "$W/io-cons"
	[ -z "$RUN_ERR" ] || return
	RUN_VAL=$(awk -v b="$IO_BYTES" -v d="$IO_NS" 'BEGIN { printf "%.1f", b / d * 1e3 }')
	[ -n "$C_ERR" ] || RUN_LOST=$C_LOST
	# what the threads produced (26 bytes an event): when it is not well above what was written, the
	# threads, not the consumer, were the limit (a loaded machine gives them little CPU)
	[ -n "$RUN_NOTE" ] || RUN_NOTE=$(awk -v b="$IO_BYTES" -v c="$IO_CONS_MS" -v s="$IO_SECONDS" \
		-v e="$IO_EMITTED" -v d="$IO_NS" 'BEGIN {
		printf "%d s of flood: events made at %.0f MB/s; consumer CPU %.2f ms per 100 MB written",
			s, e * 26 / d * 1e3, (b > 0 ? c / (b / 1e8) : 0) }')
}

# run_io_rate: the highest rate (events/s) one thread sustains without loss, in M events/s: a flood
# gives the upper bound, then the rate is bisected (geometrically, IO_STEPS runs of IO_SECONDS) between
# the highest rate that lost nothing and the lowest that lost events. Every run's counts are checked.
IO_STEPS=7
run_io_rate() {
	IO_NS=
	bench_io_run 1 0
	rm -rf "$W/io-cons"
	[ -z "$RUN_ERR" ] || return
	[ -z "$RUN_NOTE" ] || return
	hi=$(awk -v n="$IO_EMITTED" -v d="$IO_NS" 'BEGIN { printf "%.0f", n / d * 1e9 }')
	if [ "$C_LOST" = 0 ]; then
		RUN_VAL=$(awk -v r="$hi" 'BEGIN { printf "%.2f", r / 1e6 }')
		RUN_NOTE="the flood itself lost nothing ($IO_SECONDS s)"
		return
	fi
	lo=0 k=0
	while [ "$k" -lt "$IO_STEPS" ]; do
		if [ "$lo" = 0 ]; then r=$((hi / 8)); else r=$(awk -v a="$lo" -v b="$hi" 'BEGIN { printf "%.0f", sqrt(a * b) }'); fi
		bench_io_run 1 "$r"
		rm -rf "$W/io-cons"
		[ -z "$RUN_ERR" ] || return
		[ -z "$RUN_NOTE" ] || return
		if [ "$C_LOST" = 0 ]; then lo=$r; else hi=$r; fi
		k=$((k + 1))
	done
	RUN_VAL=$(awk -v r="$lo" 'BEGIN { printf "%.2f", r / 1e6 }')
	RUN_NOTE=$(awk -v h="$hi" -v s="$IO_SECONDS" -v k="$IO_STEPS" 'BEGIN {
		printf "bisected: %d runs of %d s, losses from %.2f M/s", k, s, h / 1e6 }')
}

# run_io_bytes alloc|apparent: bytes per event of a 1 M-event int3 trace (1 thread)
run_io_bytes() {
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built (see $B/build.log)"; return; }
	out=$W/io-bytes
	rm -rf "$out"
	if ! LTT_TRACE=$out LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=512 \
		"$LTT_PROG" int3 1 1000000 > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_ltt failed: $(head -n 1 "$T/err")"
		return
	fi
	ltt_count "$out"
	if [ -n "$C_ERR" ] || [ "$C_EVENTS" = 0 ]; then RUN_ERR=${C_ERR:-no event}; rm -rf "$out"; return; fi
	if [ "$1" = alloc ]; then b=$(alloc_bytes "$out"); else b=$(bytes "$out"); fi
	RUN_VAL=$(awk -v b="$b" -v n="$C_EVENTS" 'BEGIN { printf "%.3f", b / n }')
	RUN_BPE=$RUN_VAL
	RUN_LOST=$C_LOST
	RUN_NOTE="$C_EVENTS events; whole trace directory ($1)"
	rm -rf "$out"
}

# run_io_rotate: discard int3 1 thread with rotation every 64 MiB (no bound)
run_io_rotate() {
	[ -x "$LTT_PROG" ] || { RUN_ERR="bench_ltt not built (see $B/build.log)"; return; }
	out=$W/io-rot
	rm -rf "$out"
	if ! LTT_ROTATE_SIZE=64M LTT_TRACE=$out LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=$NBLOCKS \
		"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err"; then
		RUN_ERR="bench_ltt failed: $(head -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(ns_of "$T/out")
	RUN_CPU=$(cpu_of "$T/out")
	n=$(ls -d "$out"/chunk-* 2> /dev/null | wc -l)
	C_EVENTS=0 C_LOST=0
	for c in "$out"/chunk-*; do
		ltt_count "$c"
		[ -z "$C_ERR" ] || { RUN_NOTE="CHECK: $c: $C_ERR"; break; }
		ev=$((${ev:-0} + C_EVENTS)) lo=$((${lo:-0} + C_LOST))
	done
	[ -n "$RUN_NOTE" ] || { RUN_LOST=${lo:-0}; RUN_NOTE="$n chunks"; [ $((ev + lo)) = "$EVENTS" ] ||
		RUN_NOTE="CHECK: $ev + $lo != $EVENTS over $n chunks"; }
	unset ev lo
	rm -rf "$out"
}

# run_io_idle on|off: CPU ms of bench_idle over IDLE_S seconds
IDLE_S=10
[ "$QUICK" = 1 ] && IDLE_S=3
run_io_idle() {
	[ -x "$IDLE_PROG" ] || { RUN_ERR="bench_idle not built (see $B/build.log)"; return; }
	out=$W/io-idle
	rm -rf "$out"
	if [ "$1" = on ]; then
		LTT_TRACE=$out "$IDLE_PROG" $IDLE_S > "$T/out" 2> "$T/err"
	else
		"$IDLE_PROG" $IDLE_S > "$T/out" 2> "$T/err"
	fi || { RUN_ERR="bench_idle failed: $(head -n 1 "$T/err")"; return; }
	RUN_VAL=$(sed -n 's/^idle_cpu_ms=\([0-9.]*\) .*/\1/p' "$T/out")
	grep -q "recording=$([ "$1" = on ] && echo 1 || echo 0)" "$T/out" || RUN_NOTE="CHECK: recording state"
	rm -rf "$out"
}

measure io-raw-bw "$IO" "raw: dd 1 MiB O_DIRECT writes, same file system" "MB/s" - run_io_raw
measure io-consumer-bw "$IO" "consumer: blocks written, 2 threads flooding" "MB/s" io-raw-bw run_io_consumer 2
measure io-consumer-bw-1t "$IO" "consumer: blocks written, 1 thread flooding" "MB/s" io-raw-bw run_io_consumer 1
measure io-consumer-bw-buffered "$IO" "consumer, LTT_IO=buffered, 2 threads" "MB/s" io-raw-bw \
	run_io_consumer 2 LTT_IO=buffered
measure io-rate-1t "$IO" "highest rate 1 thread sustains, no loss" "Mev/s" - run_io_rate
measure io-bytes-alloc "$IO" "bytes per int3 event, 1 M events, allocated" "B/event" - run_io_bytes alloc
measure io-bytes-apparent "$IO" "bytes per int3 event, 1 M events, apparent" "B/event" - run_io_bytes apparent
measure io-rotate-int3-1t "$IO" "discard int3 1 thread, rotation every 64 MiB" ns ltt-discard-int3-1t run_io_rotate
measure io-idle-off "$IO" "idle ${IDLE_S} s, not recording: CPU" ms - run_io_idle off
measure io-idle-on "$IO" "idle ${IDLE_S} s, recording (flush timer): CPU" ms io-idle-off run_io_idle on
