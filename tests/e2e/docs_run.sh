#!/bin/sh
# SPDX-License-Identifier: MIT
# The documentation's commands run as written (issue 38): every fenced block of README.md and doc/*.md
# whose opening line is "```sh run" (or "```python run") is run, in file order, from a directory that
# looks like the top of the checkout (build/ is $BUILD; include/, examples/, eventdefs/, python/ the
# sources; ../shared the reference data when there is some), so `build/bin/ltt ...` and
# `examples/...` mean what they mean to a user. What a block writes under /tmp/ goes to a private
# directory instead (the one rewrite: /tmp/ -> $work/tmp/). A block fails when a command fails
# (sh -e; python raises; the python blocks of a page run after its earlier ones, as notebook cells
# share their names), and when a line `#> TEXT` of the block (what the user sees, shown in the
# docs as a comment; `*` stands for any text: a time, a pid) matches no line of its output. Marks after "run": `reference` (needs ../shared/reference:
# skipped without it), `root` (skipped when not root). Blocks without "run" are not run: code
# fragments, output, commands that need a server or a host of their own. Adding a block: mark it and
# check `make check LTT_TEST_FILTER=docs_run`.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
if [ -n "${SANITIZE:-}" ]; then
	echo "skip: the documentation's commands build programs against build/lib (make check runs them, not SANITIZE=$SANITIZE)"
	exit 77
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
build=$(cd "$BUILD" && pwd)
shared="${LTT_SHARED:-$SRCDIR/../shared}"
fail=0 ran=0 skipped=0

cd "$SRCDIR" || exit 1
for doc in README.md doc/*.md; do
	name=$(echo "$doc" | tr '/.' '__')
	d="$work/$name"
	mkdir -p "$d/top" "$d/tmp" "$d/blocks"
	ln -s "$build" "$d/top/build"
	for s in include examples eventdefs python; do ln -s "$SRCDIR/$s" "$d/top/$s"; done
	[ -d "$shared" ] && ln -s "$(cd "$shared" && pwd)" "$d/shared"
	# each marked block to blocks/NNN.LANG, its first line "# DOC:LINE MARKS"
	awk -v dir="$d/blocks" -v doc="$doc" '
		/^```/ && !inb {
			info = substr($0, 4); split(info, w, " ")
			inb = 1
			if (w[2] == "run" && (w[1] == "sh" || w[1] == "python")) {
				marks = ""; for (i = 3; i in w; i++) marks = marks " " w[i]
				f = sprintf("%s/%03d.%s", dir, ++n, w[1])
				print "# " doc ":" NR marks > f
			} else f = ""
			next
		}
		/^```/ && inb { inb = 0; if (f != "") close(f); f = ""; next }
		inb && f != "" { gsub("/tmp/", tmp "/"); print > f }
	' tmp="$d/tmp" "$doc"
	for b in "$d"/blocks/*; do
		[ -f "$b" ] || continue
		where=$(head -n 1 "$b" | sed 's/^# //; s/ .*//')
		marks=$(head -n 1 "$b" | cut -d' ' -f3-)
		case " $marks " in *" reference "*)
			if [ ! -d "$shared/reference" ]; then
				echo "skipped: $where: needs the reference data ($shared/reference)"
				skipped=$((skipped + 1)); continue
			fi ;;
		esac
		case " $marks " in *" root "*)
			if [ "$(id -u)" != 0 ]; then
				echo "skipped: $where: needs root"; skipped=$((skipped + 1)); continue
			fi ;;
		esac
		ran=$((ran + 1))
		t0=$(date +%s)
		case "$b" in
		*.sh) (cd "$d/top" && PATH="$d/top/build/bin:$PATH" sh -e "$b") > "$b.out" 2>&1 ;;
		*.python)	# the cells of a page share their names: each runs after the page's earlier ones
			cat "$b" >> "$d/cells.py"
			(cd "$d/top" && PYTHONPATH="$d/top/build/python" /usr/bin/python3 "$d/cells.py") > "$b.out" 2>&1 ;;
		esac
		rc=$?
		echo "ran: $where ($(($(date +%s) - t0)) s)"
		if [ $rc != 0 ]; then
			echo "FAIL: $where: the block exits $rc; its output:"
			tail -n 15 "$b.out" | sed 's/^/    /'
			fail=1
			continue
		fi
		# each #> line: a line of the output, '*' matching any text (a time, a pid)
		grep '^ *#> ' "$b" | sed 's/^ *#> //' | while IFS= read -r want; do
			found=
			while IFS= read -r line; do
				case "$line" in $want) found=1; break ;; esac
			done < "$b.out"
			[ -n "$found" ] || { echo "FAIL: $where: no line of the output is: $want"; touch "$b.lacks"; }
		done
		if [ -e "$b.lacks" ]; then
			tail -n 15 "$b.out" | sed 's/^/    /'
			fail=1
		fi
	done
done
echo "$ran blocks run, $skipped skipped"
[ $ran -ge 5 ] || { echo "FAIL: only $ran blocks marked to run"; exit 1; }
exit $fail
