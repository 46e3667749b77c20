#!/bin/sh
# SPDX-License-Identifier: MIT
# Where the trace goes (issue 14 point 3, doc/recorder.md "Where the trace goes"): PATH ending in '/'
# or an existing directory that is not a trace: a trace beneath it, PROGRAM-PID-TIME (never a hidden
# name); PATH missing: PATH is the trace; PATH a trace already (discard, flight or rotating): PATH.1,
# PATH.2, ... and one line on stderr naming both; never a trace inside another; LTT_VERBOSE=1 says
# where at start; ltt record follows the same rule.
set -u
prog="$BUILD/tests/progs/rec_stress"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-newcomer-path.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
tmp=$(cd "$tmp" && pwd -P)
fail() { echo "FAIL: $*"; exit 1; }
# run NAME ENV...: runs rec_stress 1 3 with ENV, stderr to $tmp/NAME.err, its pid to $tmp/NAME.pid
run() {
	n=$1
	shift
	env "$@" sh -c 'echo $$ > "$0"; exec "$1" 1 3' "$tmp/$n.pid" "$prog" > "$tmp/$n.out" 2> "$tmp/$n.err" ||
		fail "$n: exit status"
	[ "$(cat "$tmp/$n.out")" = "emitted ev=3 sig=0" ] || fail "$n: stdout: $(cat "$tmp/$n.out")"
}
err() { cat "$tmp/$1.err"; }
events() { "$LTT" dump --event rtest.ev "$1" | wc -l; }
# the one trace name beneath directory $1 made by run $2 (PROGRAM-PID-YYYYMMDDTHHMMSS)
beneath() {
	name=$(ls -A "$1")
	echo "$name" | grep -Eq "^${3:-rec_stress}-$(cat "$tmp/$2.pid")-[0-9]{8}T[0-9]{6}$" ||
		fail "$2: beneath $1: '$name'"
	echo "$name"
}

# PATH missing: PATH is the trace, nothing said
run a1 LTT_TRACE="$tmp/t"
[ -z "$(err a1)" ] || fail "a1 stderr: $(err a1)"
[ "$(events "$tmp/t")" = 3 ] || fail "t events"
# the same LTT_TRACE again: t.1 then t.2, one line each naming both; t never written again
run a2 LTT_TRACE="$tmp/t"
[ "$(err a2)" = "ltt: $tmp/t is a trace already (never overwritten); this trace is $tmp/t.1" ] || fail "a2: $(err a2)"
run a3 LTT_TRACE="$tmp/t" LTT_VERBOSE=1
[ "$(err a3)" = "ltt: $tmp/t is a trace already (never overwritten); this trace is $tmp/t.2
ltt: recording pid $(cat "$tmp/a3.pid") to $tmp/t.2 (discard mode)" ] || fail "a3: $(err a3)"
[ "$(events "$tmp/t.1")" = 3 ] && [ "$(events "$tmp/t.2")" = 3 ] && [ "$(events "$tmp/t")" = 3 ] || fail "t.N events"
# DIR/ with DIR a trace (once made DIR/.rec_stress-PID-TIME, a hidden trace inside the trace): DIR.3
run a4 LTT_TRACE="$tmp/t/"
[ "$(err a4)" = "ltt: $tmp/t is a trace already (never overwritten); this trace is $tmp/t.3" ] || fail "a4: $(err a4)"
[ "$(ls -A "$tmp/t" | tr '\n' ' ')" = "control cpu eventdefs info " ] || fail "t changed: $(ls -A "$tmp/t")"
[ "$(ls -A "$tmp" | grep '^t' | tr '\n' ' ')" = "t t.1 t.2 t.3 " ] || fail "traces: $(ls -A "$tmp")"

# an existing directory that is not a trace: a trace beneath it, LTT_VERBOSE=1 names it
mkdir "$tmp/d"
run b1 LTT_TRACE="$tmp/d" LTT_VERBOSE=1
name=$(beneath "$tmp/d" b1) || exit 1
[ "$(err b1)" = "ltt: recording pid $(cat "$tmp/b1.pid") to $tmp/d/$name (discard mode)" ] || fail "b1: $(err b1)"
[ "$(events "$tmp/d/$name")" = 3 ] || fail "d events"
# PATH/ missing: made, the trace beneath it
run b2 LTT_TRACE="$tmp/new/sub/"
name=$(beneath "$tmp/new/sub" b2) || exit 1
[ -z "$(err b2)" ] && [ "$(events "$tmp/new/sub/$name")" = 3 ] || fail "b2: $(err b2)"
# a program whose name starts with '.': the generated name does not
cp "$prog" "$tmp/.hidden"
mkdir "$tmp/h"
LTT_TRACE="$tmp/h" sh -c 'echo $$ > "$0"; exec "$1" 1 3' "$tmp/b3.pid" "$tmp/.hidden" > /dev/null 2> "$tmp/b3.err" ||
	fail "b3: exit status"
rm "$tmp/.hidden"
name=$(beneath "$tmp/h" b3 _hidden) || exit 1
[ -z "$(err b3)" ] || fail "b3: $(err b3)"

# never inside a trace: refused in one line, the program runs untraced, nothing made
run c1 LTT_TRACE="$tmp/t/cpu"
[ "$(err c1)" = "ltt: $tmp/t/cpu: inside the trace $tmp/t (a trace is never written into another); give a path outside it; not tracing" ] ||
	fail "c1: $(err c1)"
run c2 LTT_TRACE="$tmp/t/x/y/"
[ "$(err c2)" = "ltt: $tmp/t/x/y/: inside the trace $tmp/t (a trace is never written into another); give a path outside it; not tracing" ] ||
	fail "c2: $(err c2)"
(cd "$tmp/t" && run c3 LTT_TRACE=sub)
[ "$(err c3)" = "ltt: sub: inside the trace $tmp/t (a trace is never written into another); give a path outside it; not tracing" ] ||
	fail "c3: $(err c3)"
[ "$(ls -A "$tmp/t" | tr '\n' ' ')" = "control cpu eventdefs info " ] || fail "t changed: $(ls -A "$tmp/t")"
[ "$(ls -A "$tmp/t/cpu" | wc -l)" = "$(ls -A "$tmp/t.1/cpu" | wc -l)" ] || fail "t/cpu changed"
# a file: refused, saying what to give
: > "$tmp/file"
run c4 LTT_TRACE="$tmp/file"
[ "$(err c4)" = "ltt: $tmp/file: exists and is not a directory; give a new path or a directory to write the trace beneath; not tracing" ] ||
	fail "c4: $(err c4)"

# flight and rotating traces are traces too (their top directory has no cpu/)
run e1 LTT_TRACE="$tmp/f" LTT_MODE=flight
run e2 LTT_TRACE="$tmp/f" LTT_MODE=flight
[ "$(err e2)" = "ltt: $tmp/f is a trace already (never overwritten); this trace is $tmp/f.1" ] || fail "e2: $(err e2)"
[ "$(ls -A "$tmp/f" | tr '\n' ' ')" = "eventdefs info snapshot-0001 " ] || fail "f: $(ls -A "$tmp/f")"
run e3 LTT_TRACE="$tmp/r" LTT_ROTATE_SIZE=1M
run e4 LTT_TRACE="$tmp/r/" LTT_ROTATE_SIZE=1M
[ "$(err e4)" = "ltt: $tmp/r is a trace already (never overwritten); this trace is $tmp/r.1" ] || fail "e4: $(err e4)"
[ "$(ls -A "$tmp/r" | tr '\n' ' ')" = "chunk-0001 " ] && [ "$(ls -A "$tmp/r.1" | tr '\n' ' ')" = "chunk-0001 " ] ||
	fail "r: $(ls -A "$tmp/r") r.1: $(ls -A "$tmp/r.1")"

# ltt record: the same rule, and where each trace went
(cd "$tmp" && "$LTT" record -o rec -- "$prog" 1 2 > /dev/null 2> "$tmp/g1.err") || fail "g1: $(err g1)"
(cd "$tmp" && "$LTT" record -o rec -- "$prog" 1 2 > /dev/null 2> "$tmp/g2.err") || fail "g2: $(err g2)"
sed 's/^ltt record: pid [0-9]* runs /ltt record: pid N runs /' "$tmp/g2.err" > "$tmp/g2.txt"
[ "$(cat "$tmp/g2.txt")" = "ltt record: pid N runs $prog
ltt: $tmp/rec is a trace already (never overwritten); this trace is $tmp/rec.1
ltt record: trace written to $tmp/rec.1" ] || fail "g2: $(err g2)"
[ "$(events "$tmp/rec")" = 2 ] && [ "$(events "$tmp/rec.1")" = 2 ] || fail "rec events"
# default: ./ltt-traces/, made, one trace per run beneath it
(cd "$tmp" && "$LTT" record -- "$prog" 1 2 > /dev/null 2> "$tmp/g3.err") || fail "g3: $(err g3)"
name=$(ls -A "$tmp/ltt-traces")
[ "$(tail -n 1 "$tmp/g3.err")" = "ltt record: trace written to $tmp/ltt-traces/$name" ] || fail "g3: $(err g3)"
[ "$(events "$tmp/ltt-traces/$name")" = 2 ] || fail "ltt-traces events"
echo ok
