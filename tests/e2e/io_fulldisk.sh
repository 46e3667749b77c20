#!/bin/sh
# SPDX-License-Identifier: MIT
# A disk that stays full never loses events without a record (issue 18.1): discard mode on an 8 MiB
# tmpfs (mounted here; RLIMIT_FSIZE of 8 MiB per file when mounting is not possible), two threads
# emitting 5 M events each, 64 KiB and 1 MiB blocks: events in the trace + events_lost counts +
# events of the blocks_lost records == 10,000,000 exactly, and `ltt check` does not say ok: it reports
# info/write-losses, whose lines name the tracefiles and the events lost while writing. (Before: 64 KiB blocks, 319,784 in the trace, 737,150 counted,
# 8.94 M unaccounted; 1 MiB blocks, 282,289 + 4,919,894 counted, 4.8 M unaccounted; check said ok.)
# The same with rotation every 2 MiB (a chunk begun on the full disk had empty eventdefs before).
set -u
prog="$BUILD/tests/progs/rec_stress"
chk="$BUILD/tests/progs/io_chunkcheck"
tmp=$(mktemp -d /tmp/ltt-e2e-iofull.XXXXXX) || exit 1
mounted=
cleanup() { [ -n "$mounted" ] && umount "$tmp/fs"; rm -rf "$tmp"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$tmp/fs"
limit=
if mount -t tmpfs -o size=8m tmpfs "$tmp/fs" 2>/dev/null; then
	mounted=1
else
	limit=8192	# KiB per file (ulimit -f): the same shortage, file by file
fi
for bs in 65536 1048576; do
	t="$tmp/fs/t$bs"
	out=$( (trap '' XFSZ; [ -n "$limit" ] && ulimit -f $limit; LTT_BLOCK_SIZE=$bs LTT_TRACE="$t" "$prog" 2 5000000) 2>"$tmp/err") ||
		fail "$bs: rec_stress exit status"
	[ "$out" = "emitted ev=10000000 sig=0" ] || fail "$bs: rec_stress: $out"
	grep -q "blocks lost are counted in the trace" "$tmp/err" || fail "$bs: no warning: $(cat "$tmp/err")"
	res=$("$chk" "$t") || fail "$bs: io_chunkcheck"
	eval "$(echo "$res" | tr ' ' '\n' | sed 's/^/r_/')"
	[ "$r_bad" = 0 ] || fail "$bs: $res"
	[ $((r_all + r_lost + r_blost)) = 10000000 ] ||
		fail "$bs: $r_all in the trace + $r_lost dropped + $r_blost in lost blocks != 10000000 emitted ($res)"
	[ "$r_blost" -gt 0 ] || fail "$bs: the disk never filled ($res)"
	if "$LTT" check "$t" > "$tmp/out" 2> "$tmp/cerr"; then
		fail "$bs: ltt check exit 0 on a trace that lost blocks: $(cat "$tmp/out")"
	fi
	grep -q "info/write-losses: cpu/[0-9]*: [0-9]* blocks ([0-9]* events) could not be written: No space left on device\|File too large" "$tmp/cerr" ||
		fail "$bs: ltt check: $(cat "$tmp/cerr")"
	grep -q ': ok' "$tmp/out" && fail "$bs: ltt check says ok"
	grep -q "losses not recorded" "$t/info/write-losses" && fail "$bs: $(cat "$t/info/write-losses")"
	# the lines add up to the blocks_lost records of the cpu tracefiles
	n=$(sed -n 's/^cpu\/[0-9]*: [0-9]* blocks (\([0-9]*\) events).*/\1/p' "$t/info/write-losses" | awk '{ s += $1 } END { print s + 0 }')
	[ "$n" = "$r_blost" ] || fail "$bs: info/write-losses says $n events, the trace $r_blost"
	echo "$bs: $r_all + $r_lost + $r_blost = 10000000"
	rm -rf "$t"
done
# with rotation every 2 MiB: a chunk that cannot be made complete on the full disk is not begun (the
# recording goes on in the last one); over all chunks the same exact sum, every chunk decodes, and
# the chunks written while the disk was full say they lost blocks
if [ -n "$mounted" ]; then
	t="$tmp/fs/rot"
	out=$(LTT_ROTATE_SIZE=2M LTT_BLOCK_SIZE=65536 LTT_TRACE="$t" "$prog" 2 5000000 2>"$tmp/err") ||
		fail "rotation: rec_stress exit status"
	res=$("$chk" "$t"/chunk-*) || fail "rotation: io_chunkcheck: $(cat "$tmp/err")"
	eval "$(echo "$res" | tr ' ' '\n' | sed 's/^/r_/')"
	[ "$r_problems" = 0 ] && [ "$r_bad" = 0 ] || fail "rotation: $res"
	if [ $((r_all + r_lost + r_blost)) != 10000000 ]; then
		# allowed only if the trace says losses were not recorded (ltt check fails on it)
		for c in "$t"/chunk-*; do "$LTT" check "$c"; done > /dev/null 2> "$tmp/cerr"
		grep -q "losses not recorded" "$tmp/cerr" ||
			fail "rotation: $r_all + $r_lost + $r_blost != 10000000 over $(ls "$t" | tr '\n' ' '), and no \
chunk says losses were not recorded: $(cat "$tmp/err" "$tmp/cerr")"
	fi
	# at least the chunk being written when the disk filled says it lost blocks; a later chunk begun
	# when space came back (its reserve kept) may lose blocks too when the disk fills again, and says so
	[ "$(ls -d "$t"/chunk-*/info/write-losses 2>/dev/null | wc -l)" -ge 1 ] ||
		fail "rotation: no chunk has info/write-losses"
	echo "rotation: $(ls -d "$t"/chunk-* | wc -l) chunks, $r_all + $r_lost + $r_blost = 10000000"
fi
echo "ok${limit:+ (RLIMIT_FSIZE, no tmpfs mount)}"
