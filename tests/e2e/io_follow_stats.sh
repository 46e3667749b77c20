#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt stats --follow (issue 19.3): a summary every second while the recorder writes the trace, then
# the report of `ltt stats`.
#  1. A program emitting 400 rtest.ev events over 2 s with rotation every second (several chunks),
#     followed from before the trace exists, stdout not a terminal: one block per second, each begun
#     by '--- ltt stats --follow: S s ---' and counting the events read so far over the chunks (never
#     more than 400, never going down); it ends by itself after the program exits with '--- final ---'
#     and then exactly what `ltt stats TRACE` prints afterwards (text, and --format=json), whose
#     per-chunk rtest.ev counts add up to 400.
#  2. SIGINT: exit status 130, the final report of what was read.
set -u
. "$SRCDIR/tests/e2e/lib/follow.sh"

# 1. text and json, across rotations
for fmt in text json; do
	"$LTT" stats --follow --format=$fmt "$tmp/$fmt" > "$tmp/$fmt.out" 2> "$tmp/$fmt.err" &
	fpid=$!
	sleep 0.2
	LTT_ROTATE_SECONDS=1 LTT_TRACE="$tmp/$fmt" "$prog" 400 5 > /dev/null || fail "io_quiet"
	ends $fpid 10 || fail "ltt stats --follow did not end within 10 s after the program exited"
	fpid=
	[ "$st" = 0 ] || fail "ltt stats --follow exit status $st: $(cat "$tmp/$fmt.err")"
	[ "$(grep -c '^--- final ---$' "$tmp/$fmt.out")" = 1 ] || fail "no single '--- final ---' line"
	sed '1,/^--- final ---$/d' "$tmp/$fmt.out" > "$tmp/$fmt.final"
	"$LTT" stats --format=$fmt "$tmp/$fmt" > "$tmp/$fmt.ref" 2> /dev/null || fail "ltt stats after"
	cmp -s "$tmp/$fmt.ref" "$tmp/$fmt.final" ||
		fail "$fmt: final report differs from ltt stats: $(diff "$tmp/$fmt.ref" "$tmp/$fmt.final" | head -5)"
	nchunks=$(ls -d "$tmp/$fmt"/chunk-* | wc -l)
	[ "$nchunks" -ge 2 ] || fail "only $nchunks chunks"
	# the blocks before the final one: at least one, events read so far never above 400 nor going down
	nblocks=$(grep -c '^--- ltt stats --follow: [0-9]* s ---$' "$tmp/$fmt.out")
	[ "$nblocks" -ge 1 ] || fail "no per-second block"
	prev=0
	for n in $(sed '/^--- final ---$/,$d' "$tmp/$fmt.out" | sed -n 's/^  rtest\.ev  *\([0-9]*\) .*/\1/p'); do
		[ "$n" -le 400 ] && [ "$n" -ge "$prev" ] || fail "rtest.ev counts $prev then $n"
		prev=$n
	done
done
# the final report is per chunk: its rtest.ev lines add up to 400
[ "$(sed -n 's/^  rtest\.ev  *\([0-9]*\) .*/\1/p' "$tmp/text.final" | awk '{ s += $1 } END { print s }')" = 400 ] ||
	fail "final: rtest.ev counts do not add up to 400"

# 2. SIGINT
mkfifo "$tmp/in" || fail mkfifo
LTT_TRACE="$tmp/d" "$prog" 20 0 wait < "$tmp/in" > /dev/null &
pid=$!
exec 3> "$tmp/in"
"$LTT" stats --follow "$tmp/d" > "$tmp/d.out" 2> "$tmp/d.err" &
fpid=$!
i=0
until grep -q '^  rtest\.ev  *20 ' "$tmp/d.out"; do
	[ $i -lt 150 ] || fail "SIGINT case: the 20 events not counted: $(cat "$tmp/d.out" | tail -5)"
	sleep 0.1
	i=$((i + 1))
done
kill -INT $fpid
ends $fpid 5 || fail "ltt stats --follow did not end on SIGINT"
fpid=
[ "$st" = 130 ] || fail "SIGINT: exit status $st (expected 130)"
sed '1,/^--- final ---$/d' "$tmp/d.out" | grep -q '^  rtest\.ev  *20 ' || fail "SIGINT: final report without the 20 events"
echo go >&3
exec 3>&-
wait $pid
pid=
# 3. followed mid-recording: the first summary counts what the trace already held, with no rate (the
#    backlog is not a rate); a later one has its rate
LTT_TRACE="$tmp/late" LTT_FLUSH_MS=100 "$prog" 1500 3 > /dev/null &
pid=$!
sleep 1.2
"$LTT" stats --follow "$tmp/late" > "$tmp/late.out" 2>&1 &
fpid=$!
wait $pid || fail "io_quiet (late)"
pid=
ends $fpid 10 || fail "ltt stats --follow (late) did not end"
fpid=
first=$(grep -m 1 '^events ' "$tmp/late.out")
case "$first" in
"events "*" (already in the trace; rates from the next second), lost "*) ;;
*) fail "first summary line: '$first'" ;;
esac
grep '^events ' "$tmp/late.out" | sed 1d | grep -q '^events [0-9]* ([0-9]*/s), lost ' ||
	fail "no rate after the first summary: $(grep '^events ' "$tmp/late.out")"
echo "ok ($nblocks blocks, $nchunks chunks, final report equal to ltt stats in text and json, SIGINT, the first summary without a rate)"
