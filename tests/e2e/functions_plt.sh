#!/bin/sh
# SPDX-License-Identifier: MIT
# Library calls through the PLT (doc/recorder.md "Function tracing", library calls): recorded by default
# with --functions, as uftrace does. tests/func/func_args.c's "plt" mode (500 getppid(), 7 strlen(), its
# own count printed) built with -pg and -pg -mfentry, under ltt record --functions:
# 1. exactly 500 calls of getppid and 7 of strlen, named by their symbol (plain, as uftrace's replay),
#    called by main, each closed (nothing unfinished but none, no exit without its entry), `getppid();`
#    lines in the call dump;
# 2. -R 'getppid@retval': 500 return values, all the same, the program's parent (ltt record's pid);
# 3. --no-libcall and LTT_FUNCTIONS_LIBCALL=0: no getppid, main still recorded.
set -u
dir="$BUILD/tests/func"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-functions-plt-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}"
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || fail "jq missing (make deps installs it)"
cd "$tmp" || exit 1	# a -pg program writes gmon.out where it runs
calls() { "$LTT" stats --functions --format=json "$1" | jq -r --arg f "$2" \
	'[.functions[] | select(.function == $f) | .calls] | add // 0'; }
callers() { "$LTT" stats --functions --format=json "$1" | jq -r --arg f "$2" \
	'[.functions[] | select(.function == $f) | .callers | keys[]] | join(",")'; }
field() { "$LTT" stats --functions --format=json "$1" | jq -r ".$2"; }

for b in pg fentry; do
	prog="$dir/func_args_$b"
	[ -x "$prog" ] || fail "$prog not built (make check builds it)"
	"$LTT" record -o "$tmp/$b" --functions -R 'getppid@retval' -- "$prog" plt > "$tmp/out" 2> "$tmp/err" ||
		{ cat "$tmp/err"; fail "$b: record failed"; }
	grep -q '^getppid 500 strlen 7$' "$tmp/out" || fail "$b: the program printed $(cat "$tmp/out")"
	[ "$(calls "$tmp/$b" getppid)" = 500 ] || fail "$b: $(calls "$tmp/$b" getppid) calls of getppid, expected 500"
	[ "$(calls "$tmp/$b" strlen)" = 7 ] || fail "$b: $(calls "$tmp/$b" strlen) calls of strlen, expected 7"
	[ "$(callers "$tmp/$b" getppid)" = main ] || fail "$b: getppid's callers are $(callers "$tmp/$b" getppid)"
	[ "$(field "$tmp/$b" exits_without_entry)" = 0 ] || fail "$b: exits without their entry"
	got=$("$LTT" dump --format=calls "$tmp/$b" | grep -c '|   getppid() = [0-9]*;$')
	[ "$got" = 500 ] || fail "$b: $got 'getppid() = N;' lines in the call dump, expected 500"
	# the return values: the program's parent, ltt record (the pid it says it runs is its child)
	ppid=$("$LTT" sql "$tmp/$b" --format=csv -e "SELECT DISTINCT retval FROM calls WHERE function = 'getppid'" | tail -n +2)
	rec=$(sed -n 's/^ltt record: pid \([0-9]*\) runs .*/\1/p' "$tmp/err")
	[ -n "$rec" ] && [ -n "$ppid" ] || fail "$b: no pid said ($rec) or no return value ($ppid)"
	[ "$ppid" != "$rec" ] && [ "$ppid" -gt 1 ] || fail "$b: getppid returned $ppid (the program is $rec)"
	[ "$(echo "$ppid" | wc -l)" = 1 ] || fail "$b: getppid returned several values: $ppid"
	# off
	"$LTT" record -o "$tmp/$b-off" --functions --no-libcall -- "$prog" plt > /dev/null 2>&1 || fail "$b: --no-libcall failed"
	[ "$(calls "$tmp/$b-off" getppid)" = 0 ] || fail "$b: --no-libcall recorded getppid"
	[ "$(calls "$tmp/$b-off" main)" = 1 ] || fail "$b: --no-libcall: main not recorded"
	LTT_FUNCTIONS_LIBCALL=0 "$LTT" record -o "$tmp/$b-env" --functions -- "$prog" plt > /dev/null 2>&1 ||
		fail "$b: LTT_FUNCTIONS_LIBCALL=0 failed"
	[ "$(calls "$tmp/$b-env" getppid)" = 0 ] || fail "$b: LTT_FUNCTIONS_LIBCALL=0 recorded getppid"
done
echo "ok: 500 getppid and 7 strlen through the PLT counted exactly, named, their return values; off when asked"
