#!/bin/sh
# SPDX-License-Identifier: MIT
# The regions table is read as it is scanned (issue 28, point 7): on 1.5 M regions
# (tests/progs/regions_many.c: main/all around 750,000 work/outer, each entered with
# ltt_region_enter_printf("job %u") and holding one work/inner), `ltt sql`'s regions and
# `ltt export --format=rows --table regions` stay under 64 MiB of peak RSS (before 26 Nov 2026: 585 MB,
# every row in memory, even for LIMIT 1) with exact counts and messages (issue 29, point 3: the msg
# column); LIMIT 1 reads a few blocks, not the trace. A self-join (the table read again while it is
# read) still gives the exact answer. RSS is not asserted under sanitizers (their shadow memory).
set -u
. "$SRCDIR/tests/e2e/lib/common.sh"
RSS="$BUILD/tests/progs/reliab_maxrss"
bad() { echo "FAIL: $*"; fail=1; }
K=750000
N=$((2 * K + 1))
LIMIT_KIB=65536

# 32 blocks per ring: slack for the consumer on a loaded machine (the test needs every event)
(cd "$BUILD/tests/progs" && LTT_BLOCKS=32 LTT_TRACE="$work/big" ./regions_many $K) || { echo "regions_many failed"; exit 1; }
out=$("$LTT" check big) || { echo "ltt check big: $out"; exit 1; }
case $out in
*" 0 lost, 0 overwritten)") ;;
*) echo "the recording lost events, counts cannot be exact: $out"; exit 1 ;;
esac

# rss NAME: the peak RSS of the last measured command (its fd 3 output in NAME.rss) against the limit
rss() {
	kib=$(sed -n 's/^maxrss_kib=//p' "$1.rss")
	echo "$1: peak RSS ${kib:-?} KiB"
	if [ -z "$kib" ]; then
		bad "$1: no RSS figure"
	elif [ -z "${SANITIZE:-}" ] && [ "$kib" -gt $LIMIT_KIB ]; then
		bad "$1: peak RSS $kib KiB is over $LIMIT_KIB KiB"
	fi
}

# sql: counts by label, messages, depths, parents (ids: main/all 1, outer i 2 + 2i, inner 3 + 2i)
"$RSS" "$LTT" sql --format=csv big -e "SELECT count(*), sum(label = 'outer'), sum(label = 'inner'), sum(label = 'all'),
	sum(msg IS NOT NULL), sum(label = 'outer' AND msg = 'job ' || ((id - 2) / 2)), sum(depth),
	sum(parent_id = CASE label WHEN 'outer' THEN 1 WHEN 'inner' THEN id - 1 END), sum(parent_id IS NULL)
	FROM regions" > sql.out 3> sql.rss || bad "ltt sql count failed"
rss sql
[ "$(tail -n 1 sql.out)" = "$N,$K,$K,1,$K,$K,$((3 * K)),$((2 * K)),1" ] || bad "sql counts: $(tail -n 1 sql.out)"

# LIMIT 1: the first region to end (work/inner of job 0), from the first blocks only (before: the
# whole trace, 176 blocks)
"$RSS" "$LTT" sql --stats --format=csv big -e "SELECT category, label, depth, parent_id, id, msg FROM regions LIMIT 1" \
	> one.out 2> one.err 3> one.rss || bad "ltt sql LIMIT 1 failed"
rss one
[ "$(tail -n 1 one.out)" = "work,inner,2,2,3," ] || bad "LIMIT 1: $(cat one.out)"
blocks=$(sed -n 's/.* read \([0-9]*\) of \([0-9]*\) blocks.*/\1 \2/p' one.err)
set -- $blocks
ntf=$(echo "$out" | sed -n 's/.*(\([0-9]*\) tracefiles.*/\1/p')	# the merge reads the first block of each
[ $# = 2 ] && [ "$1" -le $((ntf + 1)) ] && [ "$2" -ge 100 ] ||
	bad "LIMIT 1 read '$blocks' blocks (read, of), $ntf tracefiles: $(cat one.err)"

# the rows export: every row, as written (counted on the fly, never stored)
"$RSS" "$LTT" export --format=rows --table regions -o - big 3> rows.rss |
	awk '/"label":"outer"/ { o++ } /"label":"inner"/ { i++ } /"msg":"job 749999","cut":0}$/ { m++ } /"msg":null,"cut":0}$/ { z++ }
	     END { print NR, o, i, m, z }' > rows.out || bad "ltt export --table regions failed"
rss rows
[ "$(cat rows.out)" = "$N $K $K 1 $((K + 1))" ] || bad "export rows: lines, outer, inner, job 749999, null msg: $(cat rows.out)"

# a small trace: the same rows as sql's, in the same order; a self-join and a subquery per row
(cd "$BUILD/tests/progs" && LTT_TRACE="$work/small" ./regions_many 1000) || { echo "regions_many 1000 failed"; exit 1; }
"$LTT" export --format=rows --table regions -o small.jsonl small || bad "export small failed"
"$LTT" sql --format=json small -e "SELECT * FROM regions" | jq -c '{trace: .trace} + del(.trace)' > want.jsonl
jq -c 'del(.host)' small.jsonl > got.jsonl
cmp -s want.jsonl got.jsonl || { bad "export rows differ from sql's:"; diff want.jsonl got.jsonl | head -5; }
[ "$(head -n 2 small.jsonl | jq -r '[.label, .msg] | join(" ")' | tr '\n' '|')" = "inner |outer job 0|" ] ||
	bad "first rows: $(head -n 2 small.jsonl)"
out=$("$LTT" sql --format=csv small -e "SELECT count(*), sum(p.msg = 'job ' || ((c.id - 3) / 2)) FROM regions c JOIN regions p ON c.parent_id = p.id WHERE p.label = 'outer'" | tail -n 1)
[ "$out" = "1000,1000" ] || bad "self-join: $out"
out=$("$LTT" sql --format=csv small -e "SELECT count(*) FROM regions r WHERE (SELECT count(*) FROM regions k WHERE k.parent_id = r.id) = 1" | tail -n 1)
[ "$out" = 1000 ] || bad "subquery per row: $out"
[ $fail -eq 0 ] && echo ok
exit $fail
