#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt dump --threads (toolkit/par*.c): the parallel path's output is byte for byte the single-thread path's,
# on a multi-CPU trace (threads migrating between CPUs, signal handlers tracing: events in cpu/0, cpu/1
# and the control tracefiles, 19+ batches of 8192 events round the ring of workers), for text and
# JSON, with --all, with filters and a time range, and for two traces at once; formats that keep state
# and --limit take the single-thread path; a closed output ends every worker.
set -u
tmp=$(mktemp -d /tmp/ltt-e2e-par.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

LTT_TRACE="$tmp/t" LTT_BLOCK_SIZE=65536 LTT_BLOCKS=64 "$BUILD/tests/progs/rec_stress" 3 52000 migrate signal \
	> "$tmp/emitted" || fail "rec_stress: $(cat "$tmp/emitted")"
LTT_TRACE="$tmp/u" LTT_BLOCK_SIZE=4096 LTT_BLOCKS=16 "$BUILD/tests/progs/rec_stress" 2 20000 \
	> /dev/null || fail "rec_stress (second trace)"
ev=$("$LTT" dump --threads=1 --event rtest.ev "$tmp/t" | wc -l)
[ "$ev" = 156000 ] || fail "the trace holds $ev rtest.ev events, 156000 emitted"
ncpu=$("$LTT" dump --threads=1 "$tmp/t" | sed -n 's/.*(\(cpu\/[0-9]*\)).*/\1/p' | sort -u | wc -l)

# same ARGS...: the output of --threads=1 and of 2 and 3 workers are identical (and not empty)
same() {
	"$LTT" dump --threads=1 "$@" > "$tmp/one" 2> "$tmp/one.err"; s1=$?
	[ -s "$tmp/one" ] || fail "ltt dump $*: no output"
	for n in 2 3; do
		"$LTT" dump --threads=$n "$@" > "$tmp/par" 2> "$tmp/par.err"; s2=$?
		[ "$s1" = "$s2" ] || fail "ltt dump --threads=$n $*: exit $s2, single-thread $s1"
		cmp -s "$tmp/one" "$tmp/par" || fail "ltt dump --threads=$n $*: output differs ($(cmp "$tmp/one" "$tmp/par"))"
		cmp -s "$tmp/one.err" "$tmp/par.err" || fail "ltt dump --threads=$n $*: stderr differs"
	done
}
same "$tmp/t"
same --format=json "$tmp/t"
same --all "$tmp/t"
same --all --format=json "$tmp/t"
same --event rtest.sig --cpu 1 "$tmp/t"
from=$("$LTT" dump --threads=1 --format=json "$tmp/t" | sed -n '50000s/.*"time":"\([0-9.]*\)".*/\1/p')
to=$("$LTT" dump --threads=1 --format=json "$tmp/t" | sed -n '120000s/.*"time":"\([0-9.]*\)".*/\1/p')
same --from "$from" --to "$to" "$tmp/t"
same "$tmp/t" "$tmp/u"
same --format=json "$tmp/t" "$tmp/u"
"$LTT" dump --threads=1 --format=normal "$tmp/t" > "$tmp/n1" 2>&1; "$LTT" dump --threads=2 --format=normal "$tmp/t" > "$tmp/n2" 2>&1
cmp -s "$tmp/n1" "$tmp/n2" || fail "--format=normal (not per event) differs with --threads=2"
same --limit 70000 --format=json "$tmp/t"
n=$("$LTT" dump --threads=2 "$tmp/t" | wc -l)
[ "$n" -gt "$ev" ] || fail "--threads=2: $n lines"

# a closed output: every process ends (no hang), no message
timeout 20 sh -c "'$LTT' dump --threads=2 '$tmp/t' 2> '$tmp/pipe.err' | head -n 3 > '$tmp/head'"
[ "$?" != 124 ] || fail "ltt dump --threads=2 | head: hangs"
[ "$(wc -l < "$tmp/head")" = 3 ] || fail "| head -n 3: $(wc -l < "$tmp/head") lines"
[ ! -s "$tmp/pipe.err" ] || fail "| head: $(cat "$tmp/pipe.err")"

"$LTT" dump --threads=17 "$tmp/t" > /dev/null 2> "$tmp/err" && fail "--threads=17 accepted"
grep -q -- "--threads=17" "$tmp/err" || fail "--threads=17: $(cat "$tmp/err")"
echo "ok: --threads=2 and 3 give the single-thread output ($n lines, $ncpu CPU tracefiles; text, json, --all, filters, range, 2 traces)"
