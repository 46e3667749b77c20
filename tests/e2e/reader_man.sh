#!/bin/sh
# SPDX-License-Identifier: MIT
# doc/ltt.1 gives every command's synopsis exactly as `ltt CMD --help` prints it (usage lines), and
# documents every command that `ltt help` lists.
set -u
: "${SRCDIR:?}" "${LTT:?}"
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
# Synopses of the man page: ".B ltt CMD ..." lines of COMMANDS, font escapes removed, one per form.
sed -n '/^\.SH COMMANDS/,/^\.SH /p' "$SRCDIR/doc/ltt.1" | grep '^\.B ltt ' |
	sed -e 's/^\.B //' -e 's/\\f[BRIP]//g' -e 's/\\-/-/g' -e 's/, ltt /\nltt /g' |
	sed -e 's/[[:space:]]\{1,\}/ /g' -e 's/ $//' > "$work/man.txt"
fail=0
for c in $("$LTT" help | awk 'NR > 3 { print $1 }'); do
	"$LTT" "$c" --help | sed -n '1,/^$/p' | grep -v '^$' | sed -e 's/^usage: //' -e 's/^ *//' \
		-e 's/[[:space:]]\{1,\}/ /g' -e 's/ $//' > "$work/help.txt"
	while IFS= read -r line; do
		if ! grep -qxF "$line" "$work/man.txt"; then
			echo "doc/ltt.1: no synopsis '$line' (from ltt $c --help)"
			fail=1
		fi
	done < "$work/help.txt"
done
exit $fail
