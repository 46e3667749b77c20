#!/bin/sh
# SPDX-License-Identifier: MIT
# Memory of the recorder (doc/recorder.md "Memory"): a flight-mode program that fills its rings
# (tests/progs/stress_emit, two threads moving over the CPUs, 3 M events) is resident for the budget
# of the CPU rings and little more: with the default budget (32 MiB, whatever the CPU count) and with
# LTT_BUFFER_SIZE=8M, its peak resident set minus the same program's untraced is within [budget - 2
# MiB, budget + 6 MiB] (the control rings' pages, the region's header, the consumer). The geometry for
# 2, 64 and 256 CPUs is tests/unit/test_budget.c's (the CPU count faked there).
set -u
# ThreadSanitizer maps shadow memory for every page the rings touch: resident sizes mean nothing there
case "${SANITIZE:-}" in *thread*) echo "skip: resident sizes under ThreadSanitizer include its shadow memory"; exit 77 ;; esac
. "$SRCDIR/tests/e2e/lib/common.sh"
P="$BUILD/tests/progs"
rss() { "$P/reliab_maxrss" env "$@" "$P/stress_emit" 2 1500000 2>&1 >/dev/null | sed -n 's/^maxrss_kib=//p'; }
base=$(rss LTT_TRACE=)
d=$(rss LTT_TRACE="$work/a" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0)
b8=$(rss LTT_TRACE="$work/b" LTT_MODE=flight LTT_SNAPSHOT_AT_EXIT=0 LTT_BUFFER_SIZE=8M)
echo "peak resident KiB: untraced $base, default budget $d, LTT_BUFFER_SIZE=8M $b8 ($(nproc) CPUs)"
[ -n "$base" ] && [ -n "$d" ] && [ -n "$b8" ] || { echo "no figure"; exit 1; }
within() {	# NAME KIB BUDGET_MIB
	lo=$((($3 - 2) * 1024)) hi=$((($3 + 6) * 1024)) got=$(($2 - base))
	[ "$got" -le "$hi" ] || { echo "$1: $got KiB over the untraced program, more than $hi"; fail=1; }
	# with more than 4 CPUs two threads may not fill every ring: only the bound is checked
	[ "$(nproc)" -gt 4 ] || [ "$got" -ge "$lo" ] || { echo "$1: $got KiB, the rings not filled (< $lo)"; fail=1; }
}
within "default budget" "$d" 32
within "LTT_BUFFER_SIZE=8M" "$b8" 8
# a budget out of range is refused, the program runs untraced
out=$("$P/stress_emit" 1 10 2>&1 >/dev/null </dev/null; LTT_TRACE="$work/c" LTT_BUFFER_SIZE=100k "$P/stress_emit" 1 10 2>&1 >/dev/null)
echo "$out" | grep -q 'LTT_BUFFER_SIZE=100k: not a size in \[128k, 1T\]' || { echo "100k accepted: $out"; fail=1; }
[ -e "$work/c" ] && { echo "a trace with a refused budget"; fail=1; }
exit $fail
