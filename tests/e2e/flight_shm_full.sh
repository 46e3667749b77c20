#!/bin/sh
# SPDX-License-Identifier: MIT
# LTT_SHM_DIR on a file system too small for the rings: the start fails with one line on stderr and the
# program runs untraced to its normal end (no SIGBUS later, when a writer would touch a page the file
# system cannot give). Needs a small tmpfs: skipped where mount is not allowed.
set -u
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-full-XXXXXX")
mkdir "$tmp/small"
if ! mount -t tmpfs -o size=64k tmpfs "$tmp/small" 2>/dev/null; then
	rm -rf "$tmp"
	echo "skip: cannot mount a small tmpfs here"
	exit 77
fi
trap 'umount "$tmp/small"; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

LTT_TRACE="$tmp/t" LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=8 LTT_SHM_DIR="$tmp/small" \
	"$prog" exit 100000 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] || fail "exit status $rc"
[ "$(wc -l < "$tmp/err")" -eq 1 ] || fail "not one line on stderr: $(cat "$tmp/err")"
grep -q "LTT_SHM_DIR=$tmp/small: No space left on device; not tracing" "$tmp/err" ||
	fail "unexpected message: $(cat "$tmp/err")"
[ -z "$(ls "$tmp/small")" ] || fail "a file was left in the full directory"
[ ! -e "$tmp/t/snapshot-0001" ] || fail "a snapshot from an untraced program"
echo "ok: $(cat "$tmp/err")"
