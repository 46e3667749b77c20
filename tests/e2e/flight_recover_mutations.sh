#!/bin/sh
# SPDX-License-Identifier: MIT
# `ltt recover` validates what it writes (issue 18, point 4): over a loop of mutated ring files (1 to 8
# random bytes at random offsets, dense in the header and the metadata records), every run ends with
# status 0 or 1, and status 0 means the trace reads back whole: `ltt check` and `ltt dump` of it exit 0.
# (757 of 3,000 mutated files were "recovered" with status 0 into traces ltt dump refused.)
# RELIAB_MUTATIONS=N sets the number of mutated files (default 100; `make check` time).
set -u
: "${BUILD:?}" "${LTT:?}"
. "$SRCDIR/tests/e2e/lib/registry.sh"
prog="$BUILD/tests/progs/flight_prog"
N=${RELIAB_MUTATIONS:-100}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/shm"
LTT_MODE=flight LTT_BLOCK_SIZE=4096 LTT_BLOCKS=4 LTT_TRACE="$tmp/t" LTT_SHM_DIR="$tmp/shm" \
	"$prog" torn 3000 note
reg_forget "$tmp/t"	# killed by its own SIGKILL: its registry file stays otherwise
ring=$(ls "$tmp"/shm/ltt-*.ring) || { echo "FAIL: no ring file"; exit 1; }
size=$(stat -c %s "$ring")
fail=0 ok=0 refused=0 i=0
"$LTT" recover "$ring" -o "$tmp/out" > /dev/null 2>&1 || { echo "FAIL: the intact ring file is not recovered"; exit 1; }
"$LTT" check "$tmp/out" > /dev/null 2>&1 || { echo "FAIL: the intact ring file's trace does not check"; exit 1; }
while [ $i -lt "$N" ]; do
	# offset and bytes from awk's generator seeded with i: half the runs in the first 8 KiB
	set -- $(awk -v seed="$i" -v size="$size" 'BEGIN { srand(seed)
		lim = (rand() < 0.5 && size > 8192) ? 8192 : size
		off = int(rand() * lim); n = 1 + int(rand() * 8); v = ""
		for (k = 0; k < n; k++) v = v sprintf("\\%03o", int(rand() * 256))
		print off, v }')
	cp "$ring" "$tmp/bad"
	printf "$2" | dd of="$tmp/bad" bs=1 seek="$1" conv=notrunc status=none
	rm -rf "$tmp/out"
	timeout 20 "$LTT" recover "$tmp/bad" -o "$tmp/out" > "$tmp/log" 2>&1
	rc=$?
	case $rc in
	0)	ok=$((ok + 1))
		if ! timeout 20 "$LTT" check "$tmp/out" > "$tmp/check" 2>&1 ||
		   ! timeout 20 "$LTT" dump --all "$tmp/out" > /dev/null 2>&1; then
			printf "FAIL: mutation %s (offset %s, bytes %s): recover exit 0, reading its trace fails:\n" "$i" "$1" "$2"
			head -n 3 "$tmp/check"
			fail=1
		fi ;;
	1)	refused=$((refused + 1))
		[ -s "$tmp/log" ] || { echo "FAIL: mutation $i: exit 1 without a message"; fail=1; } ;;
	*)	printf "FAIL: mutation %s (offset %s, bytes %s): ltt recover exited %s\n" "$i" "$1" "$2" "$rc"; tail -n 2 "$tmp/log"
		fail=1 ;;
	esac
	i=$((i + 1))
done
echo "$N mutated ring files: $ok recovered whole (each checked clean), $refused refused or incomplete (exit 1)"
exit $fail
