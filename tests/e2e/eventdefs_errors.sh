#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt facilities on the corpus of bad facility files: each must fail with exactly the message of
# tests/golden/eventdefs/errors.txt (one line per file, FILE:LINE: what), never crash.
set -u
cd "$SRCDIR" || exit 1
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
for f in tests/eventdefs/bad/*.xml; do
	msg=$("$LTT" facilities "$f" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -ne 1 ]; then
		echo "$f: exit status $rc, expected 1 ($msg)"
		exit 1
	fi
	printf '%s\n' "$msg" >>"$out"
done
if ! diff -u tests/golden/eventdefs/errors.txt "$out"; then
	echo "error messages differ from tests/golden/eventdefs/errors.txt"
	exit 1
fi
echo "$(wc -l <"$out") bad files rejected with the expected messages"
