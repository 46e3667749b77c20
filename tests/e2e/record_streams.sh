#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt record leaves the traced program's stdout and exit status alone (issue 14 point 1): its own
# messages (and libltt's) go to stderr, binary data on stdout passes byte for byte, the exit status is
# the program's code, or 128 + the signal that killed it.
set -u
prog="$BUILD/tests/progs/newcomer_emit"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-newcomer-rec.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# the bytes the program writes without ltt record
"$prog" 0 0 binary 70000 > "$tmp/plain.bin" || fail "plain run"
[ "$(wc -c < "$tmp/plain.bin")" = 70000 ] || fail "plain size"

for mode in discard flight; do
	"$LTT" record --mode $mode -o "$tmp/t-$mode" -- "$prog" 20 0 binary 70000 exit 3 \
		> "$tmp/out-$mode.bin" 2> "$tmp/err-$mode.txt"
	rc=$?
	[ $rc = 3 ] || fail "$mode: exit status $rc, not 3"
	cmp "$tmp/plain.bin" "$tmp/out-$mode.bin" || fail "$mode: stdout changed: $(tail -c 200 "$tmp/out-$mode.bin" | od -c | tail -3)"
	grep -q "^ltt record: .*$tmp/t-$mode" "$tmp/err-$mode.txt" || fail "$mode: no report on stderr: $(cat "$tmp/err-$mode.txt")"
done
[ "$("$LTT" dump --event rtest.ev "$tmp/t-discard" | wc -l)" = 20 ] || fail "discard trace"

# killed by a signal: 128 + signal, stdout still untouched
"$LTT" record -o "$tmp/t-kill" -- "$prog" 5 0 binary 1000 kill 15 > "$tmp/out-kill.bin" 2> "$tmp/err-kill.txt"
rc=$?
[ $rc = 143 ] || fail "killed: exit status $rc, not 143"
head -c 1000 "$tmp/plain.bin" | cmp - "$tmp/out-kill.bin" || fail "killed: stdout changed"
grep -q "killed by signal 15" "$tmp/err-kill.txt" || fail "killed: no message: $(cat "$tmp/err-kill.txt")"

# a program that wrote no trace: stdout still empty, the message on stderr
"$LTT" record -o "$tmp/t-none" -- true > "$tmp/out-none.txt" 2>/dev/null
[ -s "$tmp/out-none.txt" ] && fail "no trace: stdout not empty"
echo ok
