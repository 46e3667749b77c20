#!/bin/sh
# SPDX-License-Identifier: MIT
# Function tracing through longjmp, siglongjmp out of signal handlers and vfork (doc/recorder.md
# "Function tracing", Safety): tests/func/func_jmp.c built as -finstrument-functions (linked with
# libltt), -pg and -pg -mfentry (ltt record --functions). For each build:
# 1. 300 longjmps out of deep(10): exactly 3000 calls of deep, each closed (the frames the jump left
#    are closed by stack position), deep called by deep or run_jmp only;
# 2. 300 SIGALRMs whose handler calls handler_leaf() and siglongjmps out of whatever it interrupted
#    (hooks included): exactly 300 calls of alarm_handler and of handler_leaf (held while a hook runs,
#    the handler is never inside one, so none is skipped), handler_leaf called by alarm_handler only;
# 3. then 1000 after() calling after_leaf(): exactly 1000 each, after called by run_jmp (no frame
#    left open under it); nothing unfinished but main and run_jmp's callers, nothing lost;
# 4. vfork: the child's 5 calls of vchild() are not recorded as the parent's: none recorded, 10 events
#    counted lost; the parent's 10 after() after it recorded; ltt dump shows their addresses as
#    after+0xOFF (text: beside addr; JSON: "function");
# 5. (-pg builds) a -pg library loaded with dlopen (tests/func/func_dl_lib.c): its 7 dl_outer and
#    7 dl_inner calls named, dl_inner called by dl_outer.
set -u
dir="$BUILD/tests/func"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-functions-jmp-XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export ASAN_OPTIONS="verify_asan_link_order=0:${ASAN_OPTIONS:-}"
fail() { echo "FAIL: $*"; exit 1; }
command -v jq >/dev/null || fail "jq missing (make deps installs it)"
cd "$tmp" || exit 1	# a -pg program writes gmon.out where it runs
for b in cyg pg fentry; do
	[ -x "$dir/func_jmp_$b" ] || fail "$dir/func_jmp_$b not built (make check builds it)"
done

stats() { "$LTT" stats --functions --format=json "$1"; }
calls() { stats "$1" | jq -r --arg f "$2" '[.functions[] | select(.function == $f) | .calls] | add // 0'; }
callers() { stats "$1" | jq -r --arg f "$2" '[.functions[] | select(.function == $f) | .callers | keys[]] | join(",")'; }
field() { stats "$1" | jq -r ".$2"; }
lost() { "$LTT" sql "$1" --format=csv -e "SELECT coalesce(sum(count), 0) FROM lost" | tail -n 1; }

for b in cyg pg fentry; do
	prog="$dir/func_jmp_$b"
	run() {	# OUT ARGS...
		out=$1; shift
		if [ $b = cyg ]; then
			LTT_TRACE="$out" LTT_FUNCTIONS=1 "$prog" "$@"
		else
			"$LTT" record -o "$out" --functions -- "$prog" "$@" 2>"$tmp/err"
		fi
	}
	T="$tmp/$b"
	got=$(run "$T" jmp) || fail "$b: exit status $?"
	[ "$got" = "alarms 300" ] || fail "$b: the program says '$got'"
	for fc in deep:3000 alarm_handler:300 handler_leaf:300 after:1000 after_leaf:1000; do
		f=${fc%%:*} n=${fc#*:}
		[ "$(calls "$T" $f)" = "$n" ] || fail "$b: $(calls "$T" $f) calls of $f, expected $n"
	done
	[ "$(callers "$T" deep)" = "deep,run_jmp" ] || fail "$b: deep's callers are $(callers "$T" deep)"
	[ "$(callers "$T" handler_leaf)" = alarm_handler ] || fail "$b: handler_leaf's callers $(callers "$T" handler_leaf)"
	[ "$(callers "$T" after)" = run_jmp ] || fail "$b: after's callers are $(callers "$T" after) (a frame left open)"
	[ "$(callers "$T" after_leaf)" = after ] || fail "$b: after_leaf's callers are $(callers "$T" after_leaf)"
	[ "$(field "$T" exits_without_entry)" = 0 ] || fail "$b: $(field "$T" exits_without_entry) exits without their entry"
	[ "$(lost "$T")" = 0 ] || fail "$b: $(lost "$T") events lost"
	echo "ok: $b: 300 longjmps (3000 deep), 300 siglongjmps out of a SIGALRM handler, then 1000 after/after_leaf: exact"

	V="$tmp/$b-vfork"
	run "$V" vfork || fail "$b vfork: exit status $?"
	[ "$(calls "$V" vchild)" = 0 ] || fail "$b vfork: $(calls "$V" vchild) calls of vchild recorded (the child's, as the parent's)"
	[ "$(calls "$V" after)" = 10 ] || fail "$b vfork: $(calls "$V" after) calls of after, expected 10"
	[ "$(lost "$V")" = 10 ] || fail "$b vfork: $(lost "$V") events lost, expected 10 (5 calls of vchild)"
	n=$("$LTT" dump --event 'func.*' "$V" 2>/dev/null | grep -c 'addr = [0-9]* (after+0x[0-9a-f]*) }$')
	[ "$n" = 20 ] || fail "$b vfork: $n func events of after named after+0xOFF in ltt dump, expected 20"
	n=$("$LTT" dump --format=json --event 'func.*' "$V" 2>/dev/null | jq -r '.function' | grep -c '^after+0x[0-9a-f]*$')
	[ "$n" = 20 ] || fail "$b vfork: $n func events of after with \"function\": \"after+0xOFF\" in ltt dump --format=json"
	echo "ok: $b: a vfork child's 5 calls not recorded as the parent's, counted lost (10 events); ltt dump names after+0xOFF"
	[ $b = cyg ] && continue
	# a -pg library loaded with dlopen: its mapping recorded when it is loaded, its functions named
	D="$tmp/$b-dl"
	run "$D" dl "$dir/libfuncdl.so" || fail "$b dl: exit status $?"
	[ "$(calls "$D" dl_outer)" = 7 ] && [ "$(calls "$D" dl_inner)" = 7 ] ||
		fail "$b dl: $(calls "$D" dl_outer) dl_outer, $(calls "$D" dl_inner) dl_inner named (7 each expected): $("$LTT" stats --functions "$D" | sed -n 3,8p)"
	[ "$(callers "$D" dl_inner)" = dl_outer ] || fail "$b dl: dl_inner's callers $(callers "$D" dl_inner)"
	echo "ok: $b: the functions of a library loaded with dlopen are named (7 dl_outer, 7 dl_inner)"
done
