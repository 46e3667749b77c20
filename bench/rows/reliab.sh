# SPDX-License-Identifier: MIT
# Rows of the reliability concern (issue 18): `ltt pack` and `ltt unpack` speed, which the SHA-256 of
# every file (OpenSSL libcrypto) is part of. Sourced by bench/run.sh.
#
# The trace packed is recorded here (EVENTS int3 events, 1 thread, nothing lost), so that the rows run
# alone too: BENCH_QUICK=1 BENCH_ONLY=pack make bench. The figure is MB (10^6 bytes) of trace per second
# of wall time; pack runs with one compressing thread at level 1, so that the hashing is not hidden
# behind the other CPUs.

PK="Packing a trace of $EVENTS int3 events (MB/s, higher is better)"
PACK_TRACE=
PACK_NA=

pack_trace() {
	want ltt-pack || want ltt-unpack || return 0
	[ -x "$LTT_PROG" ] || { PACK_NA="bench_ltt not built (see $B/build.log)"; return 0; }
	PACK_TRACE=$W/ltt-pack
	rm -rf "$PACK_TRACE"
	if ! LTT_TRACE=$PACK_TRACE LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=512 \
		"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err"; then
		PACK_NA="bench_ltt failed: $(head -n 1 "$T/err")"
		return 0
	fi
	PACK_BYTES=$(bytes "$PACK_TRACE")
	# the archive the unpack row reads
	"$LTT" pack -j 1 -f -o "$T/pack-ref.tar.gz" "$PACK_TRACE" 2> "$T/err" ||
		PACK_NA="ltt pack failed: $(head -n 1 "$T/err")"
}

# run_pack pack|unpack
run_pack() {
	[ -z "$PACK_NA" ] || { RUN_ERR=$PACK_NA; return; }
	case $1 in
	pack) run_cmd_rate "$PACK_BYTES" "$LTT" pack -j 1 -f -o "$T/pack.tar.gz" "$PACK_TRACE" ;;
	unpack)
		rm -rf "$T/unpacked"
		run_cmd_rate "$PACK_BYTES" "$LTT" unpack -o "$T/unpacked" "$T/pack-ref.tar.gz" ;;
	esac
	RUN_NOTE="$PACK_BYTES bytes"
}

pack_trace
measure ltt-pack "$PK" "ltt pack -j 1 (MB of trace per s)" "MB/s" - run_pack pack
measure ltt-unpack "$PK" "ltt unpack (MB of trace per s)" "MB/s" - run_pack unpack
rm -rf "$T/unpacked" "$T/pack.tar.gz" "$T/pack-ref.tar.gz" "$PACK_TRACE"
