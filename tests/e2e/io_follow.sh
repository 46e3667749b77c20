#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt dump --follow (issue 19.3): prints a trace's events while the recorder writes them.
#  1. Started before the trace exists (it waits for it), following a program that emits 600 rtest.ev
#     events over 3 s (seq 0 .. 599) and then waits: all 600 are printed while the program still runs,
#     each exactly once, in order; once the program exits, the follower ends by itself (exit 0) and its
#     output equals `ltt dump` of the finished trace.
#  2. Rotation every second (several chunk-NNNN/, the last one .part while followed): every event,
#     builtin ones included (--all), as JSON, equal to `ltt dump --all --format=json` of the finished
#     capture.
#  3. The recording process killed with -9: the follower ends by itself, says the recording ended
#     without stopping, and printed what `ltt dump` reads from the trace left behind.
#  4. SIGINT: exit status 130, what was read is written out.
set -u
. "$SRCDIR/tests/e2e/lib/follow.sh"

# 1. from the start, one trace directory
"$LTT" dump --follow --event rtest.ev "$tmp/a" > "$tmp/a.out" 2> "$tmp/a.err" &
fpid=$!
sleep 0.3
mkfifo "$tmp/in" || fail mkfifo
LTT_TRACE="$tmp/a" "$prog" 600 5 wait < "$tmp/in" > "$tmp/prog.out" &
pid=$!
exec 3> "$tmp/in"
lines "$tmp/prog.out" 1 20 || fail "io_quiet did not finish emitting"
lines "$tmp/a.out" 600 15 || fail "600 events not printed while the program runs: $(wc -l < "$tmp/a.out")"
kill -0 $pid 2>/dev/null || fail "io_quiet ended early"
echo go >&3
exec 3>&-
wait $pid || fail "io_quiet exit status"
pid=
ends $fpid 10 || fail "ltt dump --follow did not end within 10 s after the program exited"
fpid=
[ "$st" = 0 ] || fail "ltt dump --follow exit status $st: $(cat "$tmp/a.err")"
seqs=$(sed -n 's/^rtest\.ev: .* seq = \([0-9]*\),.*/\1/p' "$tmp/a.out")
[ "$(echo "$seqs" | wc -l)" = 600 ] || fail "not 600 rtest.ev lines"
[ "$seqs" = "$(seq 0 599)" ] || fail "sequence numbers are not 0 .. 599 in order, once each"
times=$(sed 's/^[^:]*: \([0-9.]*\) .*/\1/' "$tmp/a.out")
[ "$times" = "$(echo "$times" | sort -n)" ] || fail "times not in order"
"$LTT" dump --event rtest.ev "$tmp/a" > "$tmp/a.ref" || fail "ltt dump of the finished trace"
cmp -s "$tmp/a.ref" "$tmp/a.out" || fail "followed output differs from ltt dump: $(diff "$tmp/a.ref" "$tmp/a.out" | head -3)"
grep -q "waiting for the trace" "$tmp/a.err" || true	# said only when the start took over a second
grep -v "waiting for the trace\|: following$" "$tmp/a.err" | grep -q . && fail "stderr: $(cat "$tmp/a.err")"

# 2. across rotations, every event, JSON
timeout 30 "$LTT" dump --follow --all --format=json "$tmp/b" > "$tmp/b.out" 2> "$tmp/b.err" &
fpid=$!
LTT_ROTATE_SECONDS=1 LTT_TRACE="$tmp/b" "$prog" 500 5 > /dev/null || fail "io_quiet (rotation)"
ends $fpid 10 || fail "ltt dump --follow (rotation) did not end within 10 s after the program exited"
fpid=
[ "$st" = 0 ] || fail "ltt dump --follow (rotation) exit status $st: $(cat "$tmp/b.err")"
nchunks=$(ls -d "$tmp/b"/chunk-* | wc -l)
[ "$nchunks" -ge 2 ] || fail "only $nchunks chunks"
"$LTT" dump --all --format=json "$tmp/b" > "$tmp/b.ref" || fail "ltt dump of the finished capture"
cmp -s "$tmp/b.ref" "$tmp/b.out" || fail "followed output across $nchunks chunks differs from ltt dump: $(diff "$tmp/b.ref" "$tmp/b.out" | head -3)"
[ "$(grep -c '"event":"ev"' "$tmp/b.out")" = 500 ] || fail "not 500 rtest.ev events across the chunks"

# 3. kill -9
"$LTT" dump --follow --event rtest.ev "$tmp/c" > "$tmp/c.out" 2> "$tmp/c.err" &
fpid=$!
LTT_TRACE="$tmp/c" "$prog" 1000000 5 > /dev/null &
pid=$!
lines "$tmp/c.out" 50 15 || fail "kill -9 case: nothing printed"
kill -9 $pid
wait $pid
pid=
ends $fpid 10 || fail "ltt dump --follow did not end within 10 s after the recording process was killed"
fpid=
[ "$st" = 0 ] || fail "ltt dump --follow (killed) exit status $st: $(cat "$tmp/c.err")"
grep -q "ended without stopping the recording" "$tmp/c.err" || fail "kill -9 not reported: $(cat "$tmp/c.err")"
"$LTT" dump --event rtest.ev "$tmp/c" > "$tmp/c.ref" 2> /dev/null
cmp -s "$tmp/c.ref" "$tmp/c.out" || fail "killed: followed output differs from ltt dump: $(diff "$tmp/c.ref" "$tmp/c.out" | head -3)"
n=$(wc -l < "$tmp/c.out")
[ "$(sed -n 's/^rtest\.ev: .* seq = \([0-9]*\),.*/\1/p' "$tmp/c.out")" = "$(seq 0 $((n - 1)))" ] ||
	fail "killed: sequence numbers are not 0 .. $((n - 1))"

# 4. SIGINT: 130, the output written out
mkfifo "$tmp/in2" || fail mkfifo
LTT_TRACE="$tmp/d" "$prog" 20 0 wait < "$tmp/in2" > /dev/null &
pid=$!
exec 3> "$tmp/in2"
"$LTT" dump --follow --event rtest.ev "$tmp/d" > "$tmp/d.out" 2> "$tmp/d.err" &
fpid=$!
lines "$tmp/d.out" 20 15 || fail "SIGINT case: not 20 events printed: $(wc -l < "$tmp/d.out")"
kill -INT $fpid
ends $fpid 5 || fail "ltt dump --follow did not end on SIGINT"
fpid=
[ "$st" = 130 ] || fail "SIGINT: exit status $st (expected 130)"
echo go >&3
exec 3>&-
wait $pid
pid=
[ "$(wc -l < "$tmp/d.out")" = 20 ] || fail "SIGINT: output not 20 lines"
echo "ok (600 events followed live, $nchunks chunks, kill -9 after $n events, SIGINT)"
