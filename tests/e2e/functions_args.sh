#!/bin/sh
# SPDX-License-Identifier: MIT
# Arguments and return values of function tracing (ltt record -A/-R, uftrace's specs; doc/recorder.md
# "Function tracing"): tests/func/func_args.c built with -pg and -pg -mfentry. For each build the call
# dump (ltt dump --format=calls) prints them as uftrace's replay does, value by value: fadd(3, 4) = 7;
# then fadd(i, i + 1) = 2i + 1 for i in [0, 100) (each once, in order), fadd(-3, 1) = -2 (i32);
# many(1, 2, 3, 4, 5, 6, 7, 8) = 36 (arguments 7 and 8 from the stack); fmul(1.500000, 2.000000) =
# 3.000000 (fparg1, fparg2/f32, retval/f); the strings: "hello, world" = 12, "NULL", 96 x then "..."
# (cut), an unreadable pointer; string return values "zero", "one"; functions without specs print ().
# The calls table has the same text in its args and retval columns (102 fadd rows whose retval is the
# sum of their args). Refused: -A without --functions, a bad spec, -A on a -finstrument-functions
# program not linked with libltt (ltt record says why); one linked with libltt (whose libltt.a brings
# mcount too: ltt record cannot tell its build) records its calls without values and says once why.
set -u
dir="$BUILD/tests/func"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-functions-args-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}"
fail() { echo "FAIL: $*"; exit 1; }
cd "$tmp" || exit 1	# a -pg program writes gmon.out where it runs
for b in cyg cygonly pg fentry; do
	[ -x "$dir/func_args_$b" ] || fail "$dir/func_args_$b not built (make check builds it)"
done
A='fadd@arg1/i32,arg2/i32;many@arg1,arg2,arg3,arg4,arg5,arg6,arg7,arg8;fmul@fparg1,fparg2/f32'
R='fadd@retval/i32;many@retval;fmul@retval/f;slen@retval/i32;pick@retval/s'

for b in pg fentry; do
	"$LTT" record -o "$tmp/$b" --functions --no-libcall -A "$A" -A 'slen@arg1/s' -R "$R" -- \
		"$dir/func_args_$b" > "$tmp/$b.out" 2> "$tmp/$b.err" || { cat "$tmp/$b.err"; fail "$b: record failed"; }
	grep -q '^fadd 102 sum 10487$' "$tmp/$b.out" || fail "$b: the program printed $(cat "$tmp/$b.out")"
	"$LTT" dump --format=calls "$tmp/$b" > "$tmp/$b.calls" || fail "$b: dump failed"
	# the call lines without duration and thread: "fadd(3, 4) = 7;"
	grep -v '^#' "$tmp/$b.calls" | sed -n 's/^[^|]*| *//p' > "$tmp/$b.lines"
	{
		echo 'main() {'
		echo 'fadd(3, 4) = 7;'
		i=0; while [ $i -lt 100 ]; do echo "fadd($i, $((i + 1))) = $((2 * i + 1));"; i=$((i + 1)); done
		echo 'fadd(-3, 1) = -2;'
		echo 'many(1, 2, 3, 4, 5, 6, 7, 8) = 36;'
		echo 'fmul(1.500000, 2.000000) = 3.000000;'
		echo 'slen("hello, world") = 12;'
		echo 'slen("NULL") = -1;'
		echo "slen(\"$(printf '%96s' '' | tr ' ' x)\"...) = 200;"
		echo 'slen(0x10 (not readable)) = -1;'
		echo 'pick() = "zero";'
		echo 'pick() = "one";'
		echo '} /* main */'
	} > "$tmp/want"
	diff "$tmp/want" "$tmp/$b.lines" > "$tmp/$b.diff" || { cat "$tmp/$b.diff"; fail "$b: the call dump differs from the program's calls"; }
	# the calls table: the same text, 102 fadd whose return value is the sum of the arguments
	got=$("$LTT" sql "$tmp/$b" --format=csv -e "SELECT count(*) FROM calls WHERE function = 'fadd' AND
		CAST(retval AS INTEGER) = CAST(substr(args, 1, instr(args, ',') - 1) AS INTEGER) +
		CAST(substr(args, instr(args, ',') + 2) AS INTEGER)" | tail -n 1)
	[ "$got" = 102 ] || fail "$b: $got fadd rows whose retval is the sum of their args, expected 102"
	got=$("$LTT" sql "$tmp/$b" --format=csv -e "SELECT args || ' = ' || retval FROM calls WHERE function = 'slen' ORDER BY ts_ns LIMIT 1" | tail -n 1)
	[ "$got" = '"""hello, world"" = 12"' ] || fail "$b: the calls table's first slen is $got"
	got=$("$LTT" sql "$tmp/$b" --format=csv -e "SELECT count(*) FROM calls WHERE function = 'main' AND args IS NULL AND retval IS NULL" | tail -n 1)
	[ "$got" = 1 ] || fail "$b: main has values in the calls table"
done

# refused, with the reason
"$LTT" record -o "$tmp/x" -A 'fadd@arg1' -- "$dir/func_args_pg" 2> "$tmp/err" && fail "-A without --functions accepted"
grep -q 'go with --functions' "$tmp/err" || fail "-A without --functions: $(cat "$tmp/err")"
"$LTT" record -o "$tmp/x" --functions -A 'fadd@arg1/q' -- "$dir/func_args_pg" 2> "$tmp/err" && fail "a bad spec accepted"
grep -q "'arg1/q': not an argument spec" "$tmp/err" || fail "a bad spec: $(cat "$tmp/err")"
"$LTT" record -o "$tmp/x" --functions -R 'fadd@arg1' -- "$dir/func_args_pg" 2> "$tmp/err" && fail "an argument as -R accepted"
"$LTT" record -o "$tmp/x" --functions -A 'fadd@arg1' -- "$dir/func_args_cygonly" 2> "$tmp/err" && fail "-A on -finstrument-functions accepted"
grep -q 'finstrument-functions' "$tmp/err" || fail "-A on -finstrument-functions: $(cat "$tmp/err")"
[ ! -e "$tmp/x" ] || fail "a refused recording wrote a trace"
# the variables given to a -finstrument-functions program linked with libltt: its calls, no values
LTT_TRACE="$tmp/cyg" LTT_FUNCTIONS=1 LTT_FUNCTIONS_ARGS='fadd@arg1' LTT_FUNCTIONS_RETVAL='fadd@retval' \
	"$dir/func_args_cyg" > /dev/null 2> "$tmp/err" || fail "cyg: the program failed"
[ "$(grep -c 'finstrument-functions' "$tmp/err")" = 1 ] || fail "cyg: not said once why: $(cat "$tmp/err")"
got=$("$LTT" dump --format=calls "$tmp/cyg" | grep -c 'fadd();')
[ "$got" = 102 ] || fail "cyg: $got fadd() lines, expected 102"
echo "ok: -A/-R values of 110 calls exact in the call dump and the calls table (-pg, -pg -mfentry), refusals said"
