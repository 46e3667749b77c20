#!/bin/sh
# SPDX-License-Identifier: MIT
# One parser for `ltt record`'s option values and libltt's LTT_* variables (common/settings.c):
# 1. every bad option value exits 2 before the program starts (it never runs), in one line naming the
#    option, its value, the accepted form and the variable; the same value in the variable gives the
#    same accepted form, from ltt record (before the program starts) and from libltt (the program runs
#    untraced: "ltt: NAME=VALUE: FORM; not tracing");
# 2. a size is one rule everywhere: -b 64KiB and LTT_BLOCK_SIZE=64KiB both record 65536-byte blocks;
# 3. booleans are exactly 1 or 0 (LTT_WAITS=yes refused), a bad LTT_WAITS_THRESHOLD_US stops the trace;
# 4. --functions alone keeps the rules of LTT_FUNCTIONS; --functions=RULES replaces them.
set -u
prog="$BUILD/tests/progs/rec_stress"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-recopt.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1

# OPTION VALUE | VARIABLE | accepted form
while IFS='|' read -r opt val var form; do
	rm -f ran
	err=$("$LTT" record -o "$tmp/t" "$opt=$val" -- sh -c 'touch ran' 2>&1); rc=$?
	[ $rc = 2 ] || fail "$opt $val: exit $rc, expected 2 ($err)"
	[ ! -e ran ] || fail "$opt $val: the program ran"
	[ ! -e "$tmp/t" ] || fail "$opt $val: a trace was written"
	[ "$err" = "ltt record: $opt=$val: $form ($var)" ] || fail "$opt $val: message: $err"
	# the variable through ltt record: refused before the program starts, same form
	err=$(env "$var=$val" "$LTT" record -o "$tmp/t" -- sh -c 'touch ran' 2>&1); rc=$?
	[ $rc = 2 ] && [ ! -e ran ] || fail "$var=$val through ltt record: exit $rc ($err)"
	[ "$err" = "ltt record: $var=$val: $form (in the environment)" ] || fail "$var=$val through ltt record: $err"
	# the variable read by libltt: one line, the program runs untraced with its own status
	extra=
	case $var in LTT_MAX_SIZE) extra=LTT_ROTATE_SIZE=1M ;; LTT_WAITS_THRESHOLD_US) extra=LTT_WAITS=1 ;;
		LTT_FUNCTIONS_*) extra=LTT_FUNCTIONS=1 ;; esac
	err=$(env $extra "$var=$val" LTT_TRACE="$tmp/t" "$prog" 1 10 2>&1 >/dev/null) || fail "$var=$val: exit status"
	[ "$err" = "ltt: $var=$val: $form; not tracing" ] || fail "$var=$val in libltt: $err"
	[ ! -e "$tmp/t" ] || fail "$var=$val: libltt wrote a trace"
done <<'EOF'
--rotate-size|100k|LTT_ROTATE_SIZE|not a size of at least 1M (bytes, k/M/G suffixes)
--rotate-seconds|0|LTT_ROTATE_SECONDS|not a number of seconds in [1, 31536000]
--max-size|-1|LTT_MAX_SIZE|not a size of at least 1 byte (bytes, k/M/G suffixes)
--flush-ms|1k|LTT_FLUSH_MS|not a number of milliseconds in [0, 86400000]
--kernel|bogus|LTT_KERNEL|not a comma list of sched, syscalls, irq, faults, switch (or 1, default, 0)
--kernel|sched,,irq|LTT_KERNEL|not a comma list of sched, syscalls, irq, faults, switch (or 1, default, 0)
--kernel-buffer|3M|LTT_KERNEL_BUFFER|not a power of two in [8k, 1G] (bytes, k/M/G suffixes)
--block-size|3000|LTT_BLOCK_SIZE|not a power of two in [4096, 256M] (bytes, k/M suffixes)
--blocks|+16|LTT_BLOCKS|not a power of two in [2, 65536]
--mode|fast|LTT_MODE|not discard or flight
--cpu-sample|3600001|LTT_CPU_SAMPLE_MS|not a number of milliseconds in [0, 3600000] (0: off)
--stack-sample|1e3|LTT_STACK_SAMPLE_HZ|not a number of samples per second in [0, 100000] (0: off)
--functions-depth|0|LTT_FUNCTIONS_DEPTH|not a count of calls in [1, 1024]
--functions-min-ns|1us|LTT_FUNCTIONS_MIN_NS|not a number of nanoseconds in [0, 10^12]
EOF
# --functions-depth goes with --functions: the value is checked first all the same
err=$("$LTT" record --functions --functions-depth 2000 -- true 2>&1); rc=$?
[ $rc = 2 ] && [ "$err" = "ltt record: --functions-depth=2000: not a count of calls in [1, 1024] (LTT_FUNCTIONS_DEPTH)" ] ||
	fail "--functions-depth 2000: exit $rc: $err"
# rules: the parser of LTT_EVENTS
err=$("$LTT" record --events 'jobs.$' -- sh -c 'touch ran' 2>&1); rc=$?
[ $rc = 2 ] && [ ! -e ran ] || fail "--events 'jobs.\$': exit $rc"
[ "$err" = "ltt record: --events=jobs.\$: rule 'jobs.\$': '\$' is not a letter, digit, '_', '.', '*' or '?' (LTT_EVENTS)" ] ||
	fail "--events message: $err"
# a value with a newline is still one line
err=$("$LTT" record --mode "$(printf 'flight\nx')" -- true 2>&1); rc=$?
[ $rc = 2 ] && [ "$err" = "ltt record: --mode=flight?x: not discard or flight (LTT_MODE)" ] || fail "newline: $err"
# LTT_WAITS_THRESHOLD_US without LTT_WAITS is still checked (it would take effect with --waits)
err=$(LTT_WAITS_THRESHOLD_US=ten LTT_TRACE="$tmp/t" "$prog" 1 10 2>&1 >/dev/null)
[ "$err" = "ltt: LTT_WAITS_THRESHOLD_US=ten: not a number of microseconds in [0, 3600000000]; not tracing" ] ||
	fail "LTT_WAITS_THRESHOLD_US=ten alone: $err"
# booleans: exactly 1 or 0 (yes, on, true, 2 refused)
for b in LTT_WAITS LTT_VERBOSE LTT_RSEQ LTT_SNAPSHOT_AT_EXIT; do
	for v in yes on true 2 " 1"; do
		err=$(env "$b=$v" LTT_TRACE="$tmp/t" "$prog" 1 10 2>&1 >/dev/null)
		[ "$err" = "ltt: $b=$v: not 1 or 0; not tracing" ] || fail "$b=$v: $err"
		[ ! -e "$tmp/t" ] || fail "$b=$v: a trace was written"
	done
done
for v in 0 1; do
	LTT_WAITS=$v LTT_TRACE="$tmp/w$v" "$prog" 1 10 >/dev/null 2>&1 || fail "LTT_WAITS=$v: exit status"
	[ "$("$LTT" dump --event rtest.ev "$tmp/w$v" | wc -l)" = 10 ] || fail "LTT_WAITS=$v: not traced"
done

# one size rule: -b 64KiB as LTT_BLOCK_SIZE=64KiB
"$LTT" record -o "$tmp/b1" -b 64KiB -- "$prog" 1 10 >/dev/null 2>&1 || fail "-b 64KiB: exit $?"
LTT_BLOCK_SIZE=64KiB LTT_TRACE="$tmp/b2" "$prog" 1 10 >/dev/null 2>&1 || fail "LTT_BLOCK_SIZE=64KiB: exit $?"
for t in b1 b2; do
	grep -q 'ltt_block_size="65536"' "$tmp/$t/info/system.xml" || fail "$t: block size not 65536"
done
"$LTT" record -o "$tmp/b3" --kernel-buffer 64k --rotate-size 1MiB --max-size 1G -- "$prog" 1 10 >/dev/null 2>&1 ||
	fail "--kernel-buffer 64k --rotate-size 1MiB --max-size 1G: exit $?"

# --functions and LTT_FUNCTIONS (tests/func/func_tree.c: 100 a, 1000 b, 1000 c)
ft="$BUILD/tests/func/func_tree_cyg"
[ -x "$ft" ] || fail "$ft not built"
calls() { "$LTT" stats --functions --format=json "$1" | jq -r --arg f "$2" '[.functions[] | select(.function == $f) | .calls] | add // 0'; }
nfuncs() { "$LTT" stats --functions --format=json "$1" | jq -r '.functions | length'; }
LTT_FUNCTIONS='b,c' "$LTT" record -o "$tmp/f1" --functions -- "$ft" tree >/dev/null 2>&1 || fail "f1: exit $?"
[ "$(calls "$tmp/f1" b)" = 1000 ] && [ "$(calls "$tmp/f1" c)" = 1000 ] && [ "$(nfuncs "$tmp/f1")" = 2 ] ||
	fail "LTT_FUNCTIONS='b,c' ltt record --functions: not exactly b and c ($(nfuncs "$tmp/f1") functions)"
LTT_FUNCTIONS='b,c' "$LTT" record -o "$tmp/f2" --functions=a -- "$ft" tree >/dev/null 2>&1 || fail "f2: exit $?"
[ "$(calls "$tmp/f2" a)" = 100 ] && [ "$(nfuncs "$tmp/f2")" = 1 ] || fail "--functions=a did not replace LTT_FUNCTIONS"
LTT_FUNCTIONS=0 "$LTT" record -o "$tmp/f3" --functions -- "$ft" tree >/dev/null 2>&1 || fail "f3: exit $?"
[ "$(calls "$tmp/f3" c)" = 1000 ] && [ "$(calls "$tmp/f3" a)" = 100 ] || fail "LTT_FUNCTIONS=0 --functions: not every function"
err=$(LTT_FUNCTIONS='b,$' "$LTT" record -o "$tmp/f4" --functions -- "$ft" tree 2>&1); rc=$?
[ $rc = 2 ] && [ ! -e "$tmp/f4" ] || fail "LTT_FUNCTIONS='b,\$' --functions: exit $rc ($err)"
echo ok
