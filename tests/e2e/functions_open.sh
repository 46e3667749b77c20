#!/bin/sh
# SPDX-License-Identifier: MIT
# The calls open at a crash are in its snapshot whatever the rings kept (doc/recorder.md "Function
# tracing", doc/format.md "The func facility": func.open): tests/func/func_jmp.c crash, built
# -finstrument-functions (linked with libltt) and -pg (ltt record --functions), in flight mode with
# rings of 4 blocks of 4 KiB per CPU: run_crash -> down x 40 -> 2,000,000 calls of leafc -> crash_now
# (SIGSEGV). The rings keep the last few hundred calls of leafc; the crash snapshot's open calls give
# the whole chain:
# - ltt stats --functions: the crashing thread's open chain is exactly main, run_crash, 40 x down,
#   crash_now (JSON "open", outermost first), the outer ones entered before the trace (start null);
# - ltt dump --format=calls: the chain's closing lines, crash_now innermost, 40 of down, run_crash, main;
# - ltt sql's calls table: 43 unfinished calls on that thread, 40 of down, NULL ts_ns for those entered
#   before the trace.
set -u
. "$SRCDIR/tests/e2e/lib/registry.sh"
dir="$BUILD/tests/func"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-functions-open-XXXXXX") || exit 1
trap 'for b in cyg pg; do reg_forget "$tmp/$b"; done; rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="handle_segv=0:verify_asan_link_order=0:${ASAN_OPTIONS:-}"
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || fail "jq missing (make deps installs it)"
cd "$tmp" || exit 1
ulimit -c 0
want="main run_crash$(for i in $(seq 40); do printf ' down'; done) crash_now"
for b in cyg pg; do
	prog="$dir/func_jmp_$b"
	[ -x "$prog" ] || fail "$prog not built (make check builds it)"
	if [ $b = cyg ]; then
		LTT_TRACE="$tmp/$b" LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=4 LTT_FUNCTIONS=1 "$prog" crash
	else
		LTT_BLOCK_SIZE=4096 LTT_BLOCKS=4 "$LTT" record -o "$tmp/$b" --mode flight --functions -- "$prog" crash 2>"$tmp/err"
	fi
	rc=$?
	[ $rc = 139 ] || fail "$b: exit status $rc, expected 139"
	snap="$tmp/$b/snapshot-0001"
	[ -d "$snap" ] || fail "$b: no crash snapshot"
	"$LTT" stats --functions --format=json "$snap" > "$tmp/s.json" || fail "$b: ltt stats"
	leafc=$(jq '[.functions[] | select(.function == "leafc") | .calls] | add // 0' "$tmp/s.json")
	[ "$leafc" -gt 0 ] && [ "$leafc" -lt 100000 ] || fail "$b: $leafc calls of leafc kept: the rings are not small"
	tid=$(jq '[.open[] | select(.function == "crash_now") | .tid][0]' "$tmp/s.json")
	got=$(jq -r --argjson t "$tid" '[.open[] | select(.tid == $t) | .function] | join(" ")' "$tmp/s.json")
	[ "$got" = "$want" ] || fail "$b: the open chain is '$got'"
	before=$(jq --argjson t "$tid" '[.open[] | select(.tid == $t and .start_ns == null)] | length' "$tmp/s.json")
	[ "$before" -ge 40 ] || fail "$b: $before calls entered before the trace, expected at least 40 (down's entries overwritten)"
	"$LTT" dump --format=calls "$snap" > "$tmp/calls.txt" || fail "$b: ltt dump --format=calls"
	chain=$(grep '(unfinished' "$tmp/calls.txt" | grep "\[ *$tid\]" | sed 's/.*\/\* //; s/ (unfinished.*//' | tr '\n' ' ')
	rev=$(echo "$want" | tr ' ' '\n' | tac | tr '\n' ' ')
	[ "$chain" = "$rev" ] || fail "$b: the dump's unfinished calls of thread $tid are '$chain'"
	n=$("$LTT" sql "$snap" --format=csv -e "SELECT count(*), sum(function = 'down'), sum(ts_ns IS NULL) FROM calls WHERE unfinished = 1 AND tid = $tid" | tail -n 1)
	case "$n" in "43,40,"*) ;; *) fail "$b: sql's unfinished calls of thread $tid: $n" ;; esac
	[ "${n##*,}" -ge 40 ] || fail "$b: sql: ${n##*,} calls without a start"
	echo "ok: $b: a crash 40 calls deep after 2,000,000 calls with 16 KiB rings: the chain main > run_crash > 40 x down > crash_now complete ($before entered before the trace) in stats, dump and sql"
done
