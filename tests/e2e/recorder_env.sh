#!/bin/sh
# SPDX-License-Identifier: MIT
# Activation by environment and ltt record: LTT_TRACE naming rules, bad settings (one line on stderr,
# the program runs untraced), unwritable paths, ltt record's report and exit status.
set -u
prog="$BUILD/tests/progs/rec_stress"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-recenv.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# a path that does not exist becomes the trace directory
LTT_TRACE="$tmp/t1" "$prog" 1 10 >/dev/null || fail "run 1"
[ -f "$tmp/t1/info/system.xml" ] && [ -f "$tmp/t1/control/facilities" ] && [ -f "$tmp/t1/control/processes" ] &&
	[ -f "$tmp/t1/control/interrupts" ] && [ -f "$tmp/t1/eventdefs/core.xml" ] || fail "t1 incomplete"
[ "$("$LTT" dump --event rtest.ev "$tmp/t1" | wc -l)" = 10 ] || fail "t1 events"

# an existing directory gets one trace per process beneath it
mkdir "$tmp/many"
LTT_TRACE="$tmp/many" "$prog" 1 5 >/dev/null || fail "run 2"
LTT_TRACE="$tmp/many" "$prog" 1 5 >/dev/null || fail "run 3"
[ "$(ls "$tmp/many" | grep -c '^rec_stress-[0-9]*-[0-9T]*')" = 2 ] || fail "two traces beneath: $(ls "$tmp/many")"

# a relative LTT_TRACE (made absolute at start, so a later chdir does not move the trace)
(cd "$tmp" && LTT_TRACE=rel "$prog" 1 3 >/dev/null) || fail "relative run"
[ "$("$LTT" dump --event rtest.ev "$tmp/rel" | wc -l)" = 3 ] || fail "relative path trace"

# LTT_TRACE naming an existing trace (a parent made it and exec'd us): the new trace is t1.1 beside it
# (tests/e2e/recorder_trace_path.sh has every case of the rule)
LTT_TRACE="$tmp/t1" "$prog" 1 4 >/dev/null 2>&1 || fail "run beside"
[ "$("$LTT" dump --event rtest.ev "$tmp/t1.1" | wc -l)" = 4 ] || fail "no trace t1.1 beside t1: $(ls "$tmp")"
[ "$(ls "$tmp/t1" | tr '\n' ' ')" = "control cpu eventdefs info " ] || fail "t1 changed: $(ls "$tmp/t1")"
[ "$("$LTT" dump --event rtest.ev "$tmp/t1" | wc -l)" = 10 ] || fail "t1 events changed"

# bad settings: one line, exit status unchanged, no trace
for bad in "LTT_BLOCK_SIZE=3000" "LTT_BLOCKS=3" "LTT_MODE=fast" "LTT_BLOCK_SIZE=1G"; do
	err=$(env "$bad" LTT_TRACE="$tmp/bad" "$prog" 1 10 2>&1 >/dev/null) || fail "$bad: exit status"
	[ "$(echo "$err" | wc -l)" = 1 ] || fail "$bad: stderr: $err"
	case "$err" in "ltt: ${bad%%=*}="*"; not tracing") ;; *) fail "$bad: message: $err" ;; esac
	[ ! -e "$tmp/bad" ] || fail "$bad: a trace was written"
done
# values the parsers once took (recorder/env_parse.c; tests/fuzz/fuzz_env.c): a sign, a space, trailing
# junk, a size whose suffix overflowed 64 bits (18014398509481988k was 4096, 18014398509483008k 1M), -1
# taken as 2^64 - 1; and a value with a newline still gives one line. Each refused with NAME=VALUE: the
# accepted form.
while IFS='|' read -r bad msg; do
	err=$(env "$bad" LTT_ROTATE_SIZE=1M LTT_TRACE="$tmp/bad" "$prog" 1 10 2>&1 >/dev/null) || fail "$bad: exit status"
	[ "$err" = "ltt: $msg; not tracing" ] || fail "$bad: message: $err"
	[ ! -e "$tmp/bad" ] || fail "$bad: a trace was written"
done <<'EOF'
LTT_MAX_SIZE=-1|LTT_MAX_SIZE=-1: not a size of at least 1 byte (bytes, k/M/G suffixes)
LTT_MAX_SIZE=1G junk|LTT_MAX_SIZE=1G junk: not a size of at least 1 byte (bytes, k/M/G suffixes)
LTT_BLOCKS=+16|LTT_BLOCKS=+16: not a power of two in [2, 65536]
LTT_BLOCK_SIZE= 64k|LTT_BLOCK_SIZE= 64k: not a power of two in [4096, 256M] (bytes, k/M suffixes)
LTT_BLOCK_SIZE=18014398509481988k|LTT_BLOCK_SIZE=18014398509481988k: not a power of two in [4096, 256M] (bytes, k/M suffixes)
LTT_FLUSH_MS=-0|LTT_FLUSH_MS=-0: not a number of milliseconds in [0, 86400000]
LTT_FLUSH_MS=1k|LTT_FLUSH_MS=1k: not a number of milliseconds in [0, 86400000]
LTT_ROTATE_SECONDS=99999999999999999999|LTT_ROTATE_SECONDS=99999999999999999999: not a number of seconds in [1, 31536000]
LTT_CPU_SAMPLE_MS=+5|LTT_CPU_SAMPLE_MS=+5: not a number of milliseconds in [0, 3600000] (0: off)
LTT_STACK_SAMPLE_HZ=4294967296|LTT_STACK_SAMPLE_HZ=4294967296: not a number of samples per second in [0, 100000] (0: off)
LTT_IO=bufferd|LTT_IO=bufferd: not buffered or direct
LTT_RSEQ=off|LTT_RSEQ=off: not 1 or 0
LTT_RSEQ=2|LTT_RSEQ=2: not 1 or 0
EOF
# the accepted values of LTT_IO and LTT_RSEQ trace
for ok in LTT_IO=buffered LTT_IO=direct LTT_RSEQ=0 LTT_RSEQ=1; do
	env "$ok" LTT_TRACE="$tmp/ok" "$prog" 1 7 >/dev/null || fail "$ok: run"
	[ "$("$LTT" dump --event rtest.ev "$tmp/ok" | wc -l)" = 7 ] || fail "$ok: events"
	rm -rf "$tmp/ok"
done
rot=18014398509483008k
err=$(LTT_ROTATE_SIZE=$rot LTT_TRACE="$tmp/bad" "$prog" 1 10 2>&1 >/dev/null) || fail "rotate overflow: exit status"
[ "$err" = "ltt: LTT_ROTATE_SIZE=$rot: not a size of at least 1M (bytes, k/M/G suffixes); not tracing" ] ||
	fail "rotate overflow: message: $err"
[ ! -e "$tmp/bad" ] || fail "rotate overflow: a trace was written"
err=$(LTT_MODE="$(printf 'flight\nx')" LTT_TRACE="$tmp/bad" "$prog" 1 10 2>&1 >/dev/null) || fail "newline: exit status"
[ "$err" = "ltt: LTT_MODE=flight?x: not discard or flight; not tracing" ] || fail "newline: message: $err"
err=$(LTT_EVENTS="$(printf 'jobs.*,a\nb')" LTT_TRACE="$tmp/bad" "$prog" 1 10 2>&1 >/dev/null) || fail "rules: exit status"
[ "$err" = "ltt: event rules 'jobs.*,a?b': rule 'a?b': byte 0x0a is not a letter, digit, '_', '.', '*' or '?'; not tracing" ] ||
	fail "rules with a newline: message: $err"
[ ! -e "$tmp/bad" ] || fail "rules: a trace was written"
err=$(LTT_TRACE=/proc/ltt-no/such "$prog" 1 10 2>&1 >/dev/null) || fail "unwritable: exit status"
case "$err" in "ltt: /proc/ltt-no/such: "*"; not tracing") ;; *) fail "unwritable: $err" ;; esac

# ltt record
out=$(cd "$tmp" && "$LTT" record -o rec -- "$prog" 2 100 2>&1 >/dev/null) || fail "ltt record: $out"
echo "$out" | grep -q "^ltt record: trace written to /.*/rec$" || fail "ltt record output: $out"
[ "$("$LTT" dump --event rtest.ev "$tmp/rec" | wc -l)" = 200 ] || fail "ltt record trace"
"$LTT" record -o "$tmp/r2" --block-size 4096 --blocks 4 -- sh -c 'exit 3' >/dev/null 2>&1
[ $? = 3 ] || fail "ltt record exit status"
"$LTT" record --block-size 5000 -- true 2>/dev/null && fail "ltt record accepted a bad block size"
grep -q 'ltt_block_size="4096"' "$tmp/t1/info/system.xml" && fail "t1 block size"
"$LTT" record -o "$tmp/r3" --block-size 4096 -- "$prog" 1 1 >/dev/null || fail "record 4096"
grep -q 'ltt_block_size="4096"' "$tmp/r3/info/system.xml" || fail "record --block-size not applied"
echo ok
