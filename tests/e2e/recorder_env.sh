#!/bin/sh
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
# (tests/e2e/newcomer_trace_path.sh has every case of the rule)
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
