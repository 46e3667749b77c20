#!/bin/sh
# SPDX-License-Identifier: MIT
# A start that fails (a bad flight setting, an LTT_SHM_DIR that cannot hold the rings' file) prints one
# line, the program runs untraced to its end, and nothing is left behind: no trace directory (before:
# an empty one was created before the settings were checked), no ring file.
set -u
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-startfail-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir "$tmp/parent" "$tmp/shm"
chmod 500 "$tmp/shm"
i=0
for bad in "LTT_SHM_DIR=$tmp/nonexistent" "LTT_SNAPSHOT_SIGNAL=bogus" "LTT_SNAPSHOT_SIGNAL=SEGV" \
	"LTT_SNAPSHOT_AT_EXIT=2" "LTT_SHM_DIR=$tmp/shm"; do
	i=$((i + 1))
	# root may write into a 0500 directory: that case then starts (and is not checked)
	if [ "$bad" = "LTT_SHM_DIR=$tmp/shm" ] && [ "$(id -u)" = 0 ]; then continue; fi
	for where in "$tmp/t$i" "$tmp/parent"; do
		err=$(env "$bad" LTT_MODE=flight LTT_TRACE="$where" "$prog" exit 10 2>&1 >/dev/null) ||
			fail "$bad: exit status"
		[ "$(echo "$err" | wc -l)" = 1 ] || fail "$bad: stderr: $err"
		case "$err" in "ltt: "*"; not tracing") ;; *) fail "$bad: message: $err" ;; esac
	done
	[ ! -e "$tmp/t$i" ] || fail "$bad: trace directory left: $(find "$tmp/t$i")"
	[ -z "$(ls "$tmp/parent")" ] || fail "$bad: left in the parent: $(ls "$tmp/parent")"
done
[ -z "$(ls "$tmp/shm")" ] || fail "ring file left: $(ls "$tmp/shm")"
# and a good start still works
LTT_MODE=flight LTT_SHM_DIR="$tmp" LTT_TRACE="$tmp/good" "$prog" exit 10 >/dev/null || fail "good start"
[ -d "$tmp/good/snapshot-0001" ] || fail "good start: no snapshot"
[ -z "$(ls "$tmp" | grep '\.ring$')" ] || fail "good start: ring file left"
echo ok
