#!/bin/sh
# SPDX-License-Identifier: MIT
# Blocking mode (issue 34, point 4; doc/recorder.md "Blocking"): tests/func/func_many.c, 2 threads of
# 400 000 calls each of a leaf (1.6 M func events), in rings of two 4 KiB blocks per CPU, which the
# consumer cannot keep up with:
#  1. function tracing's default (blocking): every call recorded, exactly 800 000 calls of leaf, no
#     event lost, no exit without its entry;
#  2. LTT_BLOCKING=0 (never block), the same run: events are lost (counted), so the rings are small
#     enough for the first run to prove something;
#  3. ltt record --blocking=2000 (not function tracing, where blocking is not the default): the same
#     exact count; --blocking=0 with LTT_FUNCTIONS loses again (the option wins over the default);
#  4. refused with one line and exit 2 (ltt record) or "not tracing" (libltt): a bad value, blocking
#     asked of a flight recorder; a flight recorder with function tracing records (never blocks).
set -u
prog="$BUILD/tests/func/func_many_cyg"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-blocking-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || fail "jq missing (make deps installs it)"
[ -x "$prog" ] || fail "$prog not built (make check builds it)"
N=400000
export LTT_BLOCK_SIZE=4096 LTT_BLOCKS=2

leaf_calls() { "$LTT" stats --functions --format=json "$1" | jq -r '[.functions[] | select(.function == "leaf") | .calls] | add // 0'; }
lost() { "$LTT" stats --format=json "$1" | jq -r '.counts.lost'; }
exits_alone() { "$LTT" stats --functions --format=json "$1" | jq -r '.exits_without_entry'; }

# 1. the default of function tracing: blocking
LTT_TRACE="$tmp/b" LTT_FUNCTIONS=1 "$prog" $N 2 > "$tmp/out" || fail "func_many (blocking) exit status"
[ "$(cat "$tmp/out")" = "calls $((2 * N))" ] || fail "func_many said $(cat "$tmp/out")"
[ "$(lost "$tmp/b")" = 0 ] || fail "blocking by default: $(lost "$tmp/b") events lost"
[ "$(leaf_calls "$tmp/b")" = $((2 * N)) ] || fail "blocking by default: $(leaf_calls "$tmp/b") calls of leaf, expected $((2 * N))"
[ "$(exits_alone "$tmp/b")" = 0 ] || fail "blocking by default: exits without their entry"
"$LTT" check "$tmp/b" > /dev/null || fail "ltt check of the blocking trace"

# 2. never blocking: the same run loses events, and says so
LTT_TRACE="$tmp/n" LTT_FUNCTIONS=1 LTT_BLOCKING=0 "$prog" $N 2 > /dev/null || fail "func_many (LTT_BLOCKING=0) exit status"
n=$(lost "$tmp/n")
[ "$n" -gt 0 ] || fail "LTT_BLOCKING=0 lost nothing: the rings are too big for this test to mean anything"
[ "$(leaf_calls "$tmp/n")" -lt $((2 * N)) ] || fail "LTT_BLOCKING=0: every call recorded with $n events lost"

# 3. ltt record --blocking[=MS]
"$LTT" record -o "$tmp/r" --functions --blocking=2000 -- "$prog" $N 2 > /dev/null 2> "$tmp/err" ||
	fail "ltt record --blocking: $(cat "$tmp/err")"
[ "$(lost "$tmp/r")" = 0 ] && [ "$(leaf_calls "$tmp/r")" = $((2 * N)) ] ||
	fail "ltt record --blocking=2000: $(leaf_calls "$tmp/r") calls, $(lost "$tmp/r") lost"
"$LTT" record -o "$tmp/r0" --functions --blocking=0 -- "$prog" $N 2 > /dev/null 2> "$tmp/err" ||
	fail "ltt record --blocking=0: $(cat "$tmp/err")"
[ "$(lost "$tmp/r0")" -gt 0 ] || fail "ltt record --functions --blocking=0 lost nothing (it blocked)"

# 4. refusals; flight mode never blocks
"$LTT" record --blocking=5s -- true 2> "$tmp/err"
[ $? = 2 ] && grep -q 'blocking=5s: not a timeout in milliseconds' "$tmp/err" || fail "--blocking=5s: $(cat "$tmp/err")"
"$LTT" record -m flight --blocking -- true 2> "$tmp/err"
[ $? = 2 ] && grep -q 'flight recorder never blocks' "$tmp/err" || fail "-m flight --blocking: $(cat "$tmp/err")"
LTT_TRACE="$tmp/x" LTT_BLOCKING=-1 "$prog" 10 > /dev/null 2> "$tmp/err" || fail "bad LTT_BLOCKING stopped the program"
grep -q 'LTT_BLOCKING=-1: not a timeout in milliseconds.*not tracing' "$tmp/err" || fail "LTT_BLOCKING=-1: $(cat "$tmp/err")"
[ ! -e "$tmp/x" ] || fail "LTT_BLOCKING=-1 made a trace"
LTT_TRACE="$tmp/f" LTT_MODE=flight LTT_BLOCKING=100 "$prog" 10 > /dev/null 2> "$tmp/err" || fail "flight + LTT_BLOCKING exit"
grep -q 'LTT_BLOCKING is for discard mode' "$tmp/err" || fail "flight + LTT_BLOCKING=100: $(cat "$tmp/err")"
LTT_TRACE="$tmp/f2" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=1 LTT_FUNCTIONS=1 "$prog" $N 2 > /dev/null 2> "$tmp/err" ||
	fail "flight + functions: $(cat "$tmp/err")"
snap=$(ls -d "$tmp/f2"/snapshot-* | head -n 1)
[ -n "$snap" ] && [ "$("$LTT" stats --format=json "$snap" | jq -r '.counts.overwritten')" -gt 0 ] ||
	fail "flight + functions: no snapshot, or nothing overwritten (did it block?)"
echo "ok: blocking $((2 * N)) calls exact; non-blocking lost $n events"
