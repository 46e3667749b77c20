#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt gen on facilities that parse but cannot become C (names that are not identifiers, generated
# names that collide): each fails with exactly the message of tests/golden/eventdefs/gen_errors.txt
# and writes no header.
set -u
cd "$SRCDIR" || exit 1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
for f in tests/eventdefs/genbad/*.xml; do
	"$LTT" facilities "$f" >/dev/null || { echo "$f: does not parse"; exit 1; }
	"$LTT" gen "$f" -o "$dir" 2>>"$dir/errors.txt"
	rc=$?
	[ $rc -eq 1 ] || { echo "$f: exit status $rc, expected 1"; exit 1; }
done
if ! diff -u tests/golden/eventdefs/gen_errors.txt "$dir/errors.txt"; then
	echo "messages differ from tests/golden/eventdefs/gen_errors.txt"
	exit 1
fi
[ -z "$(ls "$dir" | grep '\.h$')" ] || { echo "headers written for bad facilities: $(ls "$dir")"; exit 1; }
echo ok
