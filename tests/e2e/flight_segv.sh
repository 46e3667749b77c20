#!/bin/sh
# SPDX-License-Identifier: MIT
# A flight-mode program dies by SIGSEGV: the fatal-signal snapshot exists, decodes, holds the last
# events up to the one before the crash with the overwritten ones counted exactly, and the process
# still dies by SIGSEGV (exit status 128 + 11 from the shell), its `ltt snapshot` registry file removed
# before it died (a file left would be met by the next process given its pid).
set -u
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-segv-XXXXXX")
trap 'reg_forget "$tmp/t"; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

N=100000
ulimit -c 0
# under a sanitizer (make asan / tsan) the program's own SIGSEGV handler must get the signal
export ASAN_OPTIONS="handle_segv=0:${ASAN_OPTIONS:-}" TSAN_OPTIONS="handle_segv=0:${TSAN_OPTIONS:-}"
LTT_TRACE="$tmp/t" LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 "$prog" segv $N
rc=$?
[ $rc -eq 139 ] || fail "exit status $rc, expected 139 (SIGSEGV)"
[ -z "$(reg_of "$tmp/t")" ] || fail "the crashed process's registry file is left: $(reg_of "$tmp/t")"
[ -d "$tmp/t/snapshot-0001" ] || fail "no snapshot-0001 after SIGSEGV"
[ ! -e "$tmp/t/snapshot-0002" ] || fail "more than one snapshot"
"$LTT" check "$tmp/t/snapshot-0001" || fail "ltt check: the snapshot is not a valid trace"
out=$("$prog" check "$tmp/t/snapshot-0001") || fail "check failed: $out"
echo "$out"
v() { echo "$out" | head -n 1 | tr ' ' '\n' | sed -n "s/^$1=//p"; }
[ "$(v problems)" = 0 ] || fail "problems: $out"
[ "$(v gaps)" = 0 ] || fail "unexplained block gaps"
t0=$(v t0)
count=${t0%%:*}; range=${t0#*:}; first=${range%-*}; last=${range#*-}
[ "$last" = $((N - 1)) ] || fail "last tick $last, expected $((N - 1))"
[ "$first" = $((N - count)) ] || fail "ticks not contiguous: $t0"
[ "$(v blocks_lost_events)" = "$first" ] || fail "overwritten events $(v blocks_lost_events), expected $first"
echo "ok: SIGSEGV snapshot holds ticks $first..$last, $first overwritten"
