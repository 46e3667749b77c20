#!/bin/sh
# SPDX-License-Identifier: MIT
# The demo program (examples/demo.c, what `make demo` records) under `ltt record`: every job is
# submitted, started and done once; the workers' threads, names and exits are in control/processes.
set -u
demo="$BUILD/examples/demo"
[ -x "$demo" ] || { echo "skip: $demo not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-demo.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$("$LTT" record -o "$tmp/t" --block-size 65536 -- "$demo" 500 3 2>&1) || fail "ltt record: $out"
echo "$out" | grep -q "^demo: 500 jobs done by 3 workers$" || fail "demo output: $out"
echo "$out" | grep -q "^ltt record: trace written to $tmp/t$" || fail "record output: $out"
for ev in jobs.submit jobs.start jobs.done; do
	n=$("$LTT" dump --event "$ev" "$tmp/t" | wc -l)
	[ "$n" = 500 ] || fail "$ev: $n events, not 500"
done
# every job id once in jobs.done
n=$("$LTT" dump --event jobs.done "$tmp/t" | sed -n 's/.*{ id = \([0-9]*\),.*/\1/p' | sort -un | wc -l)
[ "$n" = 500 ] || fail "jobs.done: $n distinct ids"
for ev in core.thread_start core.thread_exit core.thread_name; do
	n=$("$LTT" dump --event "$ev" "$tmp/t" | wc -l)
	[ "$n" = 3 ] || fail "$ev: $n events, not 3"
done
"$LTT" dump --event core.thread_name "$tmp/t" | grep -q 'name = "worker-2"' || fail "thread names"
# the threads alive at start: the main thread (and a sanitizer's own), never libltt's consumer
"$LTT" dump --event core.process "$tmp/t" | grep -q 'name = "demo"' || fail "core.process: no main thread"
"$LTT" dump --event core.process "$tmp/t" | grep -q 'ltt-consumer' && fail "core.process lists the consumer thread"
"$LTT" stats "$tmp/t" | grep -q "^  lost        0 events" || fail "lost events: $("$LTT" stats "$tmp/t" | grep lost)"
echo ok
