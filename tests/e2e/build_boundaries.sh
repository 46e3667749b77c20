#!/bin/sh
# SPDX-License-Identifier: MIT
# The rooms' boundaries are kept by the build (doc/architecture.md, "Boundaries"): with the exact
# compile line the Makefile gives a room (`make print-flags-ROOM`), a file naming another room's
# private header does not compile, while the headers the room may use do; and the include lint
# (mk/check_includes.sh, run by make before compiling) refuses "..", included .c files and a circle
# between folders.
set -u
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-house.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$SRCDIR" || exit 1

# flags ROOM: the room's compile line, asked of make once per room (each make parses the whole tree)
for room in common eventdefs recorder reader toolkit tools; do
	f=$(make -s --no-print-directory BUILD="$BUILD" SANITIZE="${SANITIZE:-}" "print-flags-$room") ||
		fail "make print-flags-$room"
	eval "flags_$room=\$f"
done
flags() {
	eval "printf '%s\\n' \"\$flags_$1\""
}
# compiles ROOM HEADER...: a probe including each header, compiled as ROOM compiles its files (the probe
# sits outside the tree, so nothing beside it can be found by quotes either)
compiles() {
	room=$1
	shift
	printf '#define LTT_CMD(n)\n#define LTT_FMT(n)\n#define LTT_EXP(n)\n' >"$tmp/probe.c"	# for the tables
	for h in "$@"; do
		case "$h" in
		"<"*) echo "#include $h" ;;
		*) echo "#include \"$h\"" ;;
		esac
	done >>"$tmp/probe.c"
	echo 'int ltt_probe(void);' >>"$tmp/probe.c"
	# the line as make runs it: through the shell (-DLTT_VERSION=\"...\")
	eval "$(flags "$room") -fsyntax-only \"\$tmp/probe.c\"" >"$tmp/err" 2>&1
}
must_compile() {
	compiles "$@" || { cat "$tmp/err"; fail "$1 cannot include: $*"; }
}
must_not_compile() {
	room=$1
	h=$2
	if compiles "$room" "$h"; then
		fail "a file compiled as $room includes $h, another room's private header"
	fi
	grep -q 'No such file' "$tmp/err" || { cat "$tmp/err"; fail "$room including $h failed for another reason"; }
}

for room in common eventdefs recorder reader toolkit tools; do
	flags "$room" | grep -q -- '-I\.\( \|$\)' && fail "$room compiles with -I."
	flags "$room" | grep -q -- '-Itools\( \|$\)' && fail "$room compiles with -Itools"
done

# What each room may use compiles with its flags.
must_compile tools "<ltt/reader.h>" "<ltt/eventdefs.h>" "toolkit/dump_format.h" "toolkit/export.h" \
	"reader/archive.h" "eventdefs/rules_match.h" "recorder/shm_layout.h" "ltt-cmds.h"
must_compile toolkit "<ltt/reader.h>" "toolkit/par.h" "toolkit/reader_common.h"
must_compile reader "<ltt/reader.h>" "reader/archive.h"
must_compile recorder "<ltt/ltt.h>" "eventdefs/rules_match.h" "recorder/shm_layout.h"

# A file in tools/ cannot reach into the reader, the recorder, the model or another command.
for h in reader/manifest.h reader/reader_internal.h reader/archive_int.h manifest.h \
	recorder/recorder.h recorder/env_parse.h eventdefs/model.h tools/sql/sql.h sql/sql.h sql.h \
	dump/dump_format.h tools/recover/recover.h recover.h; do
	must_not_compile tools "$h"
done
# The toolkit does not see the commands (their list, their headers).
for h in ltt-cmds.h ltt-fmts.h tools/export/ctf.h export/ctf.h recorder/shm_layout.h reader/manifest.h; do
	must_not_compile toolkit "$h"
done
# The rooms below do not see the rooms above them, nor each other's private headers.
for h in toolkit/dump_format.h recorder/shm_layout.h recorder/recorder.h eventdefs/model.h; do
	must_not_compile reader "$h"
done
for h in toolkit/dump_format.h reader/archive.h reader/reader_internal.h eventdefs/model.h; do
	must_not_compile recorder "$h"
done
for h in reader/archive.h recorder/shm_layout.h toolkit/cmd.h; do
	must_not_compile eventdefs "$h"
done
for h in eventdefs/rules_match.h reader/archive.h toolkit/cmd.h; do
	must_not_compile common "$h"
done

# The lint passes on the tree, and refuses each of its faults in a copy of it.
sh mk/check_includes.sh || fail "the include lint refuses the tree"
lint_refuses() {	# lint_refuses WHAT FILE TEXT: the lint names FILE
	rm -rf "$tmp/tree" && mkdir -p "$tmp/tree/mk" "$tmp/tree/tools/x" "$tmp/tree/toolkit/include/toolkit" \
		"$tmp/tree/reader/include/reader" && cp mk/check_includes.sh "$tmp/tree/mk/" || fail "copy"
	: >"$tmp/tree/reader/manifest.h"
	: >"$tmp/tree/toolkit/include/toolkit/t.h"
	mkdir -p "$tmp/tree/${2%/*}" && printf '%s\n' "$3" >"$tmp/tree/$2"
	(cd "$tmp/tree" && sh mk/check_includes.sh) >"$tmp/lint" 2>&1 && fail "the lint accepts $1"
	grep -q "$2" "$tmp/lint" || { cat "$tmp/lint"; fail "the lint does not name $2 ($1)"; }
}
lint_refuses '#include "../"' tools/x/a.c '#include "../../reader/manifest.h"'
lint_refuses 'a ".." inside an include' tools/x/b.c '#include "reader/../../reader/manifest.h"'
lint_refuses 'an included .c file' tools/x/c.c '#include "d.c"'
rm -rf "$tmp/tree" && mkdir -p "$tmp/tree/mk" "$tmp/tree/tools/x" "$tmp/tree/toolkit/include/toolkit" &&
	cp mk/check_includes.sh "$tmp/tree/mk/" || fail "copy"
echo '#include "toolkit/t.h"' >"$tmp/tree/tools/x/p.c"
: >"$tmp/tree/tools/x/q.h"
: >"$tmp/tree/toolkit/include/toolkit/t.h"
echo '#include "tools/x/q.h"' >"$tmp/tree/toolkit/t.c"
(cd "$tmp/tree" && sh mk/check_includes.sh) >"$tmp/lint" 2>&1 && fail "the lint accepts a circle"
grep -q 'circle' "$tmp/lint" && grep -q 'tools/x' "$tmp/lint" || { cat "$tmp/lint"; fail "the circle is not named"; }
echo "house boundaries: ok"
