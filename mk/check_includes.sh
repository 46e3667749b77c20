#!/bin/sh
# SPDX-License-Identifier: MIT
# The include lint `make` runs before compiling (doc/architecture.md, "Boundaries"):
#   1. no `..` in a quoted include (`#include "../x.h"`, `"reader/../../x.h"`) in any C source or
#      header: a path climbing out of a folder goes around the rooms' include paths;
#   2. no C source included as a header (`#include "x.c"`): tests link the libraries instead;
#   3. no circle between folders: every quoted include is resolved the way the compiler resolves it
#      (beside the file first, then the rooms' include folders), giving an edge from the folder of
#      the file to the folder (or room) of the header; tsort refuses a graph with a loop.
# Prints one line per fault, naming the file and line, and exits 1; silent and 0 when all is well.
# Run from the top of the tree.
set -u
dirs="common eventdefs recorder reader toolkit tools python include tests bench examples"
present=
for d in $dirs; do [ -d "$d" ] && present="$present $d"; done
files=$(find $present -name build -prune -o \( -name '*.c' -o -name '*.h' \) -print | sort)
status=0

bad=$(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"([^"]*/)?\.\./' $files)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" | sed 's/^\([^:]*:[0-9]*\):.*/\1: ".." in an include: name the header by its room ("reader\/archive.h") or move it beside its user/'
	status=1
fi
bad=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[^"]*\.c"' $files)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" | sed 's/^\([^:]*:[0-9]*\):.*/\1: a .c file included: link the library that holds it instead/'
	status=1
fi

# Folder graph. A header under ROOM/include/ or include/ belongs to its room ("include" for the API).
edges=$(for f in $files; do
	sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f" | while read -r h; do
		dir=${f%/*}
		if [ -f "$dir/$h" ]; then
			to="$dir/$h"
		else
			to=
			for root in include common/include eventdefs/include recorder/include reader/include \
			    toolkit/include .; do
				if [ -f "$root/$h" ]; then
					to="$root/$h"
					break
				fi
			done
			[ -n "$to" ] || continue	# generated ($(BUILD)/gen) or a system header
		fi
		echo "$f $to"
	done
done | awk '
	function node(p,   n) {
		sub(/^\.\//, "", p)
		if (p ~ /^include\//) return "include"
		if (p ~ /^[a-z_]+\/include\//) { n = p; sub(/\/.*/, "", n); return n }
		n = p; sub(/\/[^\/]*$/, "", n); return n
	}
	{ a = node($1); b = node($2); if (a != b) print a, b }' | sort -u)
loop=$(printf '%s\n' "$edges" | tsort 2>&1 >/dev/null)
if [ -n "$loop" ]; then
	echo "mk/check_includes.sh: the folders include each other in a circle (A B: A includes B):"
	printf '%s\n' "$loop" | sed -n 's/^tsort: //p' | sed 's/^-: //'
	printf '%s\n' "$edges" | sed 's/^/  /'
	status=1
fi
exit $status
