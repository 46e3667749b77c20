#!/bin/sh
# SPDX-License-Identifier: MIT
# kill -9 of a flight-mode program whose rings live in files (LTT_SHM_DIR): `ltt recover --list` sees
# it dead, `ltt recover` rebuilds a trace that decodes and holds every tick up to the last committed
# one (the program notes each commit in a mapped file), the overwritten events counted exactly. The
# file of a live process is refused; recover removes the killed process's `ltt snapshot` registry file.
set -u
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-recover-XXXXXX")
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; reg_forget "$tmp/t"; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/shm"

LTT_TRACE="$tmp/t" LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 LTT_SHM_DIR="$tmp/shm" \
	"$prog" spin "$tmp/progress" &
pid=$!
i=0
while [ $i -lt 200 ]; do
	[ -s "$tmp/progress" ] && [ "$(od -An -tu8 -j8 -N8 "$tmp/progress" | tr -d ' ')" = 1 ] && break
	sleep 0.05; i=$((i + 1))
done
sleep 0.3
ring=$(ls "$tmp"/shm/ltt-*.ring) || fail "no ring file under LTT_SHM_DIR"
"$LTT" recover "$ring" -o "$tmp/live" 2>"$tmp/err" && fail "recovered the file of a live process"
grep -q "still running" "$tmp/err" || fail "unexpected message: $(cat "$tmp/err")"
[ ! -e "$tmp/live" ] || fail "output made for a live process"
[ -n "$(reg_of "$tmp/t")" ] || fail "no registry file for the live process"
kill -9 $pid
wait $pid 2>/dev/null
pid=
L=$(od -An -tu8 -N8 "$tmp/progress" | tr -d ' ')
"$LTT" recover --list "$tmp/shm" | grep -q "	dead	" || fail "--list does not show the file dead"
rec=$("$LTT" recover "$ring" -o "$tmp/rec" 2>&1) || fail "ltt recover failed: $rec"
echo "$rec"
# the process is dead (the file's start time is its): its registry file went with the recovery
[ -z "$(reg_of "$tmp/t")" ] || fail "ltt recover left the dead process's registry file: $(reg_of "$tmp/t")"
# the kill may come while a block is being opened (between its opener's reservation and commit,
# tests/e2e/flight_recover_opening.sh): then exactly that is reported, the opener's event the one torn
case "$rec" in
*"blocks being opened"*)
	case "$rec" in *", 1 torn events dropped, "*", 1 blocks being opened at the death ("*) ;;
	*) fail "a block being opened, not reported as one with one torn event: $rec" ;; esac ;;
*", 0 torn events dropped, "*|*", 1 torn events dropped, "*) ;;
*) fail "more than one torn event from one thread: $rec" ;;
esac
grep -q '^ltt_recovered="1"$' "$tmp/rec/info/system.xml" || fail "no ltt_recovered attribute"
"$LTT" check "$tmp/rec" || fail "ltt check: the recovered trace is not valid"
out=$("$prog" check "$tmp/rec") || fail "check failed: $out"
echo "$out"
v() { echo "$out" | head -n 1 | tr ' ' '\n' | sed -n "s/^$1=//p"; }
[ "$(v problems)" = 0 ] || fail "problems: $out"
[ "$(v torn)" = "$(echo "$rec" | sed -n 's/.*, \([0-9]*\) torn events dropped, .*/\1/p')" ] ||
	fail "torn events in the trace $(v torn), recover said: $rec"
[ "$(v bad)" = 0 ] || fail "garbage decoded: $out"
[ "$(v gaps)" = 0 ] || fail "unexplained block gaps"
t0=$(v t0)
count=${t0%%:*}; range=${t0#*:}; first=${range%-*}; last=${range#*-}
case "$t0" in *gappy*|*dup*) fail "ticks not contiguous: $t0" ;; esac
# ticks 0 .. L-1 were committed; tick L may have been committed before the note of it was stored
[ "$last" -ge $((L - 1)) ] && [ "$last" -le "$L" ] || fail "last tick $last, committed up to $((L - 1))"
[ "$first" = $((last + 1 - count)) ] || fail "ticks not contiguous: $t0"
# overwritten: ticks 0 .. first-1 and the notes emitted before tick first (note i follows tick i,
# i = 63, 127, ...), unless the retained window starts with the note just before tick first
notes=$((first / 64)); fn=$(v first_note)
[ "$fn" = $((first - 1)) ] && notes=$((notes - 1))
[ "$(v blocks_lost_events)" = $((first + notes)) ] ||
	fail "overwritten events $(v blocks_lost_events), expected $((first + notes))"
echo "ok: recovered ticks $first..$last of $L committed"
