#!/bin/sh
# SPDX-License-Identifier: MIT
# Rotation (issue 19.1): LTT_ROTATE_SIZE / LTT_ROTATE_SECONDS / LTT_MAX_SIZE make TRACE/chunk-NNNN/
# directories, each a complete trace.
#  1. 10 M events (one stream, seq 0 .. 10^7-1) through at least 8 chunks with at most 3 kept by a
#     12 MiB bound: the kept chunks are consecutive, the removed ones are exactly the lines of
#     TRACE/chunks-removed, each kept chunk passes `ltt check` alone, and over the kept span no event
#     is duplicated and events + counted drops == events emitted from the span's first event on.
#     The trace read as a whole (TRACE, the parent) gives the same events and names the removed chunks.
#  2. kill -9 while rotating every 2 MiB: every sealed chunk passes `ltt check`, at most one
#     chunk-NNNN.part is left and it decodes (its whole blocks).
#  3. LTT_ROTATE_SECONDS=1: a chunk begun after a thread was created lists it (core.process).
set -u
prog="$BUILD/tests/progs/io_rotate"
chk="$BUILD/tests/progs/io_chunkcheck"
tmp=$(mktemp -d /tmp/ltt-e2e-iorot.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# 1. the bound and exact counts
N=10000000
LTT_ROTATE_SIZE=4M LTT_MAX_SIZE=12M LTT_TRACE="$tmp/a" "$prog" $N 10000 1 || fail "io_rotate exit status"
[ ! -e "$tmp/a/chunk-0001.part" ] && ! ls -d "$tmp/a"/*.part > /dev/null 2>&1 || fail "a .part left after exit"
kept=$(cd "$tmp/a" && ls -d chunk-[0-9]* | sort)
nkept=$(echo "$kept" | wc -l)
[ "$nkept" -le 3 ] || fail "$nkept chunks kept (bound 12M, chunks of 4M): $kept"
first=$(echo "$kept" | head -n 1 | sed 's/chunk-0*//')
last=$(echo "$kept" | tail -n 1 | sed 's/chunk-0*//')
[ "$last" -ge 8 ] || fail "only $last chunks made"
[ $((last - first + 1)) = "$nkept" ] || fail "kept chunks not consecutive: $kept"
# every chunk before the first kept one is in chunks-removed, once, in order
i=1
while [ $i -lt "$first" ]; do
	line=$(sed -n "${i}p" "$tmp/a/chunks-removed")
	case "$line" in "$(printf 'chunk-%04d removed ' $i)"[0-9]*) ;; *) fail "chunks-removed line $i: '$line'" ;; esac
	i=$((i + 1))
done
[ "$(wc -l < "$tmp/a/chunks-removed")" = $((first - 1)) ] || fail "chunks-removed: $(wc -l < "$tmp/a/chunks-removed") lines for $((first - 1)) chunks removed"
dirs=
for c in $kept; do
	out=$("$LTT" check "$tmp/a/$c" 2>&1) || fail "ltt check $c: $(echo "$out" | head -3)"
	grep -q "ltt_chunk=\"$(echo "$c" | sed 's/chunk-0*//')\"" "$tmp/a/$c/info/system.xml" || fail "$c: no ltt_chunk"
	dirs="$dirs $tmp/a/$c"
done
res=$("$chk" $dirs) || fail "io_chunkcheck failed"
eval "$(echo "$res" | tr ' ' '\n' | sed 's/^/r_/')"
[ "$r_dup" = 0 ] && [ "$r_bad" = 0 ] && [ "$r_problems" = 0 ] || fail "kept chunks: $res"
[ $((r_events + r_lost - r_lost_before)) = $((N - r_first)) ] ||
	fail "kept chunks: $r_events events + $((r_lost - r_lost_before)) counted drops != $((N - r_first)) emitted from seq $r_first ($res)"

# the same read as a whole: TRACE is the set of its chunks, the removed ones reported as removed
n=$("$LTT" dump --event rtest.ev "$tmp/a" 2> "$tmp/derr" | wc -l)
[ "$n" = "$r_events" ] || fail "ltt dump TRACE: $n events, the chunks hold $r_events"
[ "$first" = 1 ] || grep -q "removed by the size bound" "$tmp/derr" || fail "ltt dump TRACE: $(cat "$tmp/derr")"
"$LTT" check "$tmp/a" > /dev/null 2>&1 || fail "ltt check TRACE: $("$LTT" check "$tmp/a" 2>&1 | tail -3)"

# 2. kill -9 while rotating (every 2 MiB, about 100 per second here)
for k in 3 5; do
	rm -rf "$tmp/b"
	LTT_ROTATE_SIZE=2M LTT_TRACE="$tmp/b" "$prog" 1000000000 10000 1 &
	pid=$!
	i=0
	while [ ! -d "$(printf '%s/b/chunk-%04d' "$tmp" $k)" ] && [ $i -lt 1500 ]; do sleep 0.02; i=$((i + 1)); done
	kill -9 $pid
	wait $pid 2>/dev/null
	[ $i -lt 1500 ] || fail "kill: chunk $k not made in 30 s"
	parts=0
	for c in "$tmp"/b/chunk-*; do
		case "$c" in
		*.part)
			parts=$((parts + 1))
			for f in "$c"/cpu/* "$c"/control/*; do	# the kill may have cut a block write
				n=$(wc -c < "$f"); truncate -s $((n / 1048576 * 1048576)) "$f"
			done
			"$LTT" dump "$c" > /dev/null 2>&1 || fail "kill: $c does not decode" ;;
		*)
			out=$("$LTT" check "$c" 2>&1) || fail "kill: ltt check $c: $(echo "$out" | head -3)" ;;
		esac
	done
	[ $parts -le 1 ] || fail "kill: $parts .part chunks"
done

# 3. a chunk lists the threads created before it
LTT_ROTATE_SECONDS=1 LTT_TRACE="$tmp/c" "$prog" 25 1 100 thread || fail "io_rotate thread"
[ -d "$tmp/c/chunk-0002" ] || fail "LTT_ROTATE_SECONDS=1: no chunk-0002 after 2.5 s: $(ls "$tmp/c")"
"$LTT" dump --event core.process "$tmp/c/chunk-0002" | grep -q io-old-thread ||
	fail "chunk-0002 does not list io-old-thread (created in chunk-0001)"
total=0
for c in "$tmp"/c/chunk-*; do
	"$LTT" check "$c" > /dev/null || fail "ltt check $c"
	total=$((total + $("$LTT" dump --event rtest.ev "$c" | wc -l)))
done
[ "$total" = 25 ] || fail "LTT_ROTATE_SECONDS: $total events in the chunks, not 25"
echo "ok (kept chunk-$first .. chunk-$last; $r_events events + $((r_lost - r_lost_before)) counted drops from seq $r_first)"
