#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt facilities on good facility files (both dialects, several facilities per file): names,
# checksums and event counts as in tests/golden/eventdefs/facilities.txt. The test vector of
# doc/format.md section 8 must give 0xd93ff1ce in both dialects.
set -u
cd "$SRCDIR" || exit 1
got=$("$LTT" facilities tests/eventdefs/good/*.xml tests/eventdefs/gentypes.xml eventdefs/core.xml) || {
	echo "ltt facilities failed"
	exit 1
}
if ! printf '%s\n' "$got" | diff -u tests/golden/eventdefs/facilities.txt -; then
	echo "output differs from tests/golden/eventdefs/facilities.txt"
	exit 1
fi
n=$(printf '%s\n' "$got" | grep -c '^test 0xd93ff1ce 2$')
[ "$n" -eq 2 ] || { echo "test vector: $n of 2 files give 0xd93ff1ce"; exit 1; }
# no argument, a missing file: one line, non-zero
"$LTT" facilities >/dev/null 2>&1 && { echo "no argument accepted"; exit 1; }
msg=$("$LTT" facilities tests/eventdefs/good/nonexistent.xml 2>&1)
[ "$msg" = "ltt facilities: tests/eventdefs/good/nonexistent.xml: cannot open: No such file or directory" ] ||
	{ echo "missing file: '$msg'"; exit 1; }
echo ok
