#!/bin/sh
# SPDX-License-Identifier: MIT
# Snapshots of one flight recording read together (doc/reader.md "Snapshots of one recording"): three
# overlapping snapshots of a process whose 8-block ring wraps give each event once (seltest.b's seq
# counted: no duplicate, the union of the snapshots' events, the newest snapshot's all present), the
# merged view's overwritten count is what no snapshot holds (recorded - distinct events; plus at most the
# events dropped while libltt's thread took a snapshot, the program recording on), and
# `ltt dump --all-snapshots TRACE` is the same; snapshots of two recordings still merge as a set.
set -u
prog="$BUILD/tests/progs/select_flight"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-merge-snapshots-XXXXXX")
pids=
trap 'for p in $pids; do kill -9 $p 2>/dev/null && rm -f "/tmp/ltt-$(id -u)/flight-$p"; done; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
reg=/tmp/ltt-$(id -u)
wait_for() {
	i=0
	while [ ! -e "$1" ]; do
		i=$((i + 1))
		[ $i -le 1000 ] || fail "$1 never appeared"
		sleep 0.01
	done
}
# seqs ARGS...: the seq of every seltest.b event `ltt dump ARGS` prints, one a line, sorted
seqs() { "$LTT" dump --event seltest.b "$@" | sed -n 's/.* seq = \([0-9]*\) }$/\1/p' | sort -n; }
# overwr ARGS...: the sum of the overwritten column of the cpu/N tracefiles in `ltt stats ARGS`
overwr() { "$LTT" stats "$@" | awk '$1 ~ /^cpu\// { s += $6 } END { print s + 0 }'; }
# dropped ARGS...: the sum of the lost column of the cpu/N tracefiles (events the writers dropped while
# a snapshot held the ring: libltt's thread takes it while the program records on)
dropped() { "$LTT" stats "$@" | awk '$1 ~ /^cpu\// { s += $5 } END { print s + 0 }'; }

# recording A: 3 snapshots, the ring (8 blocks of 64 KiB, ~3600 events each) wraps between them
# (pinned to one CPU: libltt's thread seals and copies one CPU's ring after another while the program
# records on, so events a migrating program records on a ring already copied, before it moves to one
# not yet copied, are in no snapshot and counted nowhere: doc/flight-recorder.md "What a snapshot
# contains")
LTT_TRACE="$tmp/a" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0 LTT_BLOCK_SIZE=65536 LTT_BLOCKS=8 \
	taskset -c 0 "$prog" run 20000 &
p=$!
pids="$pids $p"
wait_for "$reg/flight-$p"
sleep 0.5
for n in 1 2 3; do
	out=$("$LTT" snapshot "$p") || fail "snapshot $n: $out"
	[ "$out" = "$tmp/a/snapshot-000$n" ] || fail "snapshot $n printed '$out'"
	sleep 0.1
done
kill -TERM "$p"
wait "$p" || fail "the program did not end cleanly"

for n in 1 2 3; do seqs "$tmp/a/snapshot-000$n" > "$tmp/s$n"; done
sort -n -u "$tmp/s1" "$tmp/s2" "$tmp/s3" > "$tmp/union"
seqs "$tmp/a/snapshot-0001" "$tmp/a/snapshot-0002" "$tmp/a/snapshot-0003" > "$tmp/merged"
dup=$(uniq -d "$tmp/merged" | wc -l)
[ "$dup" = 0 ] || fail "$dup events printed more than once: $(uniq -d "$tmp/merged" | head -3 | tr '\n' ' ')"
cmp -s "$tmp/merged" "$tmp/union" || fail "merged: $(wc -l < "$tmp/merged") events, the snapshots hold $(wc -l < "$tmp/union")"
sort "$tmp/merged" > "$tmp/merged.lex"
sort "$tmp/s3" > "$tmp/s3.lex"
[ "$(comm -13 "$tmp/merged.lex" "$tmp/s3.lex" | wc -l)" = 0 ] || fail "events of the newest snapshot missing"
n1=$(wc -l < "$tmp/s1"); n2=$(wc -l < "$tmp/s2"); n3=$(wc -l < "$tmp/s3"); nm=$(wc -l < "$tmp/merged")
[ $((n1 + n2 + n3)) -gt "$nm" ] || fail "the snapshots do not overlap ($n1 + $n2 + $n3 events, $nm merged)"
# seq runs 0..last: what no snapshot holds is exactly what the merged view counts as overwritten
last=$(tail -1 "$tmp/s3")
ow=$(overwr "$tmp/a/snapshot-0001" "$tmp/a/snapshot-0002" "$tmp/a/snapshot-0003")
dr=$(dropped "$tmp/a/snapshot-0001" "$tmp/a/snapshot-0002" "$tmp/a/snapshot-0003")
# events dropped while a snapshot held the ring (the program records on while libltt's thread takes
# it) are counted in a lost column, or among the overwritten once the block reporting them was
# overwritten: what no snapshot holds is the overwritten count plus at most the drops
d=$((last + 1 - nm - ow))
[ $d -ge 0 ] && [ $d -le "$dr" ] ||
	fail "merged overwritten $ow (+ dropped $dr), expected $((last + 1)) recorded - $nm held = $((last + 1 - nm))"
ow3=$(overwr "$tmp/a/snapshot-0003"); dr3=$(dropped "$tmp/a/snapshot-0003")
d=$((last + 1 - n3 - ow3))
[ $d -ge 0 ] && [ $d -le "$dr3" ] || fail "snapshot 3 overwritten $ow3 (+ dropped $dr3), expected $((last + 1 - n3))"
# ltt check --all-snapshots: each snapshot's line counts what it holds (as checked alone), not only the
# blocks the merge read from it (an older snapshot's shared blocks are read from the newest copy)
"$LTT" check --all-snapshots "$tmp/a" 2>/dev/null | sed 's|^.*/||' > "$tmp/check.all"
for n in 1 2 3; do "$LTT" check "$tmp/a/snapshot-000$n" | sed 's|^.*/||'; done > "$tmp/check.each"
cmp -s "$tmp/check.all" "$tmp/check.each" || fail "check --all-snapshots: $(cat "$tmp/check.all") / alone: $(cat "$tmp/check.each")"
seqs --all-snapshots "$tmp/a" > "$tmp/all" 2> /dev/null	# its note on stderr: 3 snapshots
cmp -s "$tmp/all" "$tmp/merged" || fail "--all-snapshots: $(wc -l < "$tmp/all") events, snapshot-*: $nm"
"$LTT" check "$tmp/a/snapshot-0001" "$tmp/a/snapshot-0002" "$tmp/a/snapshot-0003" > /dev/null ||
	fail "ltt check of the 3 snapshots"

# recording B, another process: merged with A as a trace set (events of both, A's once)
LTT_TRACE="$tmp/b" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0 "$prog" run 20000 &
p=$!
pids="$pids $p"
wait_for "$reg/flight-$p"
sleep 0.1
out=$("$LTT" snapshot "$p") || fail "snapshot of B: $out"
kill -TERM "$p"
wait "$p" || fail "B did not end cleanly"
nb=$(seqs "$tmp/b/snapshot-0001" | wc -l)
[ "$nb" -gt 0 ] || fail "B: no events"
both=$(seqs "$tmp/a/snapshot-0001" "$tmp/a/snapshot-0002" "$tmp/a/snapshot-0003" "$tmp/b/snapshot-0001" | wc -l)
[ "$both" = $((nm + nb)) ] || fail "A and B together: $both events, expected $nm + $nb"
echo "ok: snapshots of $n1 + $n2 + $n3 events read together give $nm once (seq 0..$last, $ow overwritten); with B ($nb): $both"
