#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt recover` on damaged ring files: bytes overwritten in the header, the rings, the commit words,
# the blocks and the metadata records, a truncated file, an empty one. It must never crash or hang:
# each run ends with status 0 (everything recovered), or 1: one line naming what is wrong, or a trace
# written with what could not be recovered reported on the last line; and whatever
# it writes is read by the reader without a crash.
set -u
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_prog"
[ -x "$prog" ] || { echo "skip: $prog not built"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-flight-damaged-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
mkdir "$tmp/shm"
LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=4 LTT_TRACE="$tmp/t" LTT_SHM_DIR="$tmp/shm" \
	"$prog" torn 3000 note
reg_forget "$tmp/t"	# killed by its own SIGKILL: its registry file stays otherwise
ring=$(ls "$tmp"/shm/ltt-*.ring) || fail "no ring file"
size=$(stat -c %s "$ring")

run() {	# $1: damaged file, $2: what
	rm -rf "$tmp/out"
	timeout 20 "$LTT" recover "$1" -o "$tmp/out" >"$tmp/log" 2>&1
	rc=$?
	[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "$2: ltt recover exited $rc: $(tail -n 2 "$tmp/log")"
	# status 1: one line, or a trace written with damage reported (last line "...: incomplete: ...")
	partial=
	[ $rc -eq 1 ] && tail -n 1 "$tmp/log" | grep -q "^ltt recover: .*: incomplete: " && partial=1
	[ $rc -eq 1 ] && [ -z "$partial" ] && [ "$(wc -l < "$tmp/log")" -ne 1 ] && fail "$2: not one line: $(cat "$tmp/log")"
	if [ $rc -eq 0 ] || [ -n "$partial" ]; then
		timeout 20 "$prog" check "$tmp/out" >/dev/null 2>&1
		rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 1 ] || fail "$2: reading the recovered trace exited $rc"
	fi
	return 0
}

run "$ring" "intact"
: > "$tmp/empty"; run "$tmp/empty" "empty file"
head -c 100 "$ring" > "$tmp/short"; run "$tmp/short" "100 bytes"
head -c $((size / 2)) "$ring" > "$tmp/half"; run "$tmp/half" "half the file"
# overwrite 8 bytes at offsets spread over the whole file, with values that make sizes and offsets wrong
i=0
for v in '\377\377\377\377\377\377\377\377' '\001\000\000\200\000\000\000\000'; do
	off=0
	while [ $off -lt $size ]; do
		cp "$ring" "$tmp/bad"
		printf "$v" | dd of="$tmp/bad" bs=1 seek=$off conv=notrunc status=none
		run "$tmp/bad" "8 bytes at offset $off"
		i=$((i + 1))
		# dense in the header and ring structures, sparse in the blocks
		if [ $off -lt 4096 ]; then off=$((off + 64)); else off=$((off + 6151)); fi
	done
done
echo "ok: $i damaged files, no crash"
