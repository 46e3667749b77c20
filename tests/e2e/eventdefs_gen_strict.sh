#!/bin/sh
# SPDX-License-Identifier: MIT
# The public headers and every header ltt gen writes compile clean under the strict flags common in C
# projects: -std=c99 -Wall -Wextra -Wdeclaration-after-statement -Werror (gcc and clang), each header
# alone in a translation unit, the generated ones from every facility of the tree (eventdefs/,
# tests/eventdefs/ and its good/ files, examples/, bench/). A header that declares a variable after a
# statement (as the generator's string lengths once did) fails here.
set -u
cd "$SRCDIR" || exit 1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
xml=$(ls eventdefs/*.xml tests/eventdefs/*.xml tests/eventdefs/good/*.xml examples/*.xml bench/*.xml 2>/dev/null)
i=0
for x in $xml; do	# one directory each: some files define the same facility in two dialects
	i=$((i + 1))
	"$LTT" gen "$x" -o "$dir/gen$i" >/dev/null || { echo "ltt gen $x failed"; exit 1; }
done
n=0 fail=0
for cc in gcc clang; do
	for h in include/ltt/*.h "$dir"/gen*/*.h; do
		case "$h" in */gen*/*) inc="#include <ltt/ltt.h>
#include \"$h\"" ;; *) inc="#include <ltt/$(basename "$h")>" ;; esac
		printf '%s\nint main(void) { return 0; }\n' "$inc" > "$dir/t.c"
		if ! $cc -std=c99 -Wall -Wextra -Wdeclaration-after-statement -Werror -Iinclude \
			-c "$dir/t.c" -o "$dir/t.o" 2> "$dir/err"; then
			echo "$cc: $h:"; head -n 20 "$dir/err"; fail=1
		fi
		n=$((n + 1))
	done
done
[ "$n" -ge 20 ] || { echo "only $n headers compiled"; fail=1; }
echo "$n compilations"
exit $fail
