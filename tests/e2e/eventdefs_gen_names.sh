#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt gen --header NAME / --prefix PREFIX (issue 14 point 10): the header's file name and what starts
# the C names a program uses are chosen; the default stays DIR/FACILITY.h with trace_FACILITY_event().
# A program with its own yarn.h and yarn_* names includes the header generated with
# --header trace_yarn.h --prefix=myapp_, compiles with -Wall -Wextra -Werror, runs traced, and
# ltt dump shows its events.
set -u
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-newcomer-gen.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$tmp/yarn.xml" <<'EOT'
<facility name="yarn">
  <description>a thread pool's events</description>
  <type name="lock">
    <struct>
      <field name="id"><uint size="4"/></field>
      <field name="state"><enum size="1">free held</enum></field>
    </struct>
  </type>
  <event name="possess">
    <struct>
      <field name="lock"><typeref name="lock"/></field>
      <field name="who"><string/></field>
    </struct>
  </event>
  <event name="twist">
    <struct>
      <field name="id"><uint size="4"/></field>
      <field name="op"><enum size="1">to by</enum></field>
      <field name="val"><int size="8"/></field>
    </struct>
  </event>
</facility>
EOT

# the facility's checksum (the same whatever the options: only C names differ)
sum=$("$LTT" facilities "$tmp/yarn.xml" | awk '{ print substr($2, 3) "u" }')
# default: DIR/yarn.h, trace_yarn_*, struct yarn_lock, YARN_LOCK_STATE_held
"$LTT" gen "$tmp/yarn.xml" -o "$tmp/def" || fail "gen default"
[ "$(ls "$tmp/def")" = "yarn.h" ] || fail "default file: $(ls "$tmp/def")"
for s in "#ifndef LTT_GEN_YARN_H" "struct yarn_lock {" "#define YARN_LOCK_STATE_held 1u" \
	 "#define YARN_TWIST_OP_by 1u" "static inline void trace_yarn_possess(const struct yarn_lock *lock, const char *who)" \
	 "static inline void trace_yarn_twist(uint32_t id, uint8_t op, int64_t val)" \
	 "__attribute__((weak)) struct ltt_facility ltt_facility_yarn = {" "#define LTT_FACILITY_YARN_CHECKSUM 0x$sum"; do
	grep -qxF "$s" "$tmp/def/yarn.h" || fail "default header lacks '$s'"
done

# --header and --prefix
"$LTT" gen "$tmp/yarn.xml" -o "$tmp/gen" --header trace_yarn.h --prefix=myapp_ || fail "gen --header --prefix"
[ "$(ls "$tmp/gen")" = "trace_yarn.h" ] || fail "file: $(ls "$tmp/gen")"
for s in "#ifndef LTT_GEN_YARN_MYAPP_H" "struct myapp_lock {" "#define MYAPP_LOCK_STATE_held 1u" \
	 "#define MYAPP_TWIST_OP_by 1u" "static inline void trace_myapp_possess(const struct myapp_lock *lock, const char *who)" \
	 "static inline void trace_myapp_twist(uint32_t id, uint8_t op, int64_t val)" \
	 "__attribute__((weak)) struct ltt_facility ltt_facility_yarn = {" "#define LTT_FACILITY_YARN_CHECKSUM 0x$sum"; do
	grep -qxF "$s" "$tmp/gen/trace_yarn.h" || fail "header lacks '$s'"
done
grep -q "yarn_lock\|YARN_LOCK\|trace_yarn_" "$tmp/gen/trace_yarn.h" && fail "a yarn_ name is left: $(grep -n "yarn_lock\|YARN_LOCK\|trace_yarn_" "$tmp/gen/trace_yarn.h")"

# the program's own yarn.h (pigz's names) beside the generated header
cat > "$tmp/gen/yarn.h" <<'EOT'
struct yarn_lock { int held; };
#define YARN_LOCK_STATE_held "the program's own"
static inline int yarn_twist(struct yarn_lock *l) { return ++l->held; }
EOT
cat > "$tmp/prog.c" <<'EOT'
#include <stdio.h>
#include "yarn.h"
#include "trace_yarn.h"

int main(void)
{
	struct yarn_lock mine = { 0 };
	struct myapp_lock l = { 7, MYAPP_LOCK_STATE_held };

	trace_myapp_possess(&l, "main");
	for (int i = 0; i < 3; i++)
		trace_myapp_twist((uint32_t)i, i ? MYAPP_TWIST_OP_by : MYAPP_TWIST_OP_to, -5 + i);
	printf("%s %d\n", YARN_LOCK_STATE_held, yarn_twist(&mine));
	return 0;
}
EOT
${CC:-cc} ${SANITIZE:+-fsanitize=$SANITIZE} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$tmp/gen" \
	-o "$tmp/prog" "$tmp/prog.c" -L"$BUILD/lib" -lltt || fail "the program does not build"
out=$(LD_LIBRARY_PATH="$BUILD/lib" LTT_TRACE="$tmp/t" "$tmp/prog") || fail "the program failed"
[ "$out" = "the program's own 1" ] || fail "program output: $out"
"$LTT" dump --facility yarn "$tmp/t" > "$tmp/dump.txt" || fail "ltt dump"
# the event lines without time and cpu
cat > "$tmp/want.txt" <<'EOT'
yarn.possess { lock = { id = 7, state = held }, who = "main" }
yarn.twist { id = 0, op = to, val = -5 }
yarn.twist { id = 1, op = by, val = -4 }
yarn.twist { id = 2, op = by, val = -3 }
EOT
sed -E 's/^(yarn\.[a-z]+): [0-9.]+ \(cpu\/[0-9]+\) /\1 /' "$tmp/dump.txt" | diff "$tmp/want.txt" - > "$tmp/diff.txt" || fail "events: $(cat "$tmp/diff.txt"; cat "$tmp/dump.txt")"

# one line naming the fault and the fix
check_err() {
	want=$1
	shift
	got=$("$LTT" gen "$@" 2>&1 >/dev/null)
	rc=$?
	[ $rc = 2 ] || fail "ltt gen $*: exit $rc"
	[ "$got" = "$want" ] || fail "ltt gen $*: '$got', not '$want'"
}
check_err "ltt gen: --header 'sub/x.h': give a file name (the directory is -o DIR), e.g. --header trace_myapp.h" \
	"$tmp/yarn.xml" --header sub/x.h -o "$tmp/e"
check_err "ltt gen: --header '': give a file name (the directory is -o DIR), e.g. --header trace_myapp.h" \
	"$tmp/yarn.xml" -o "$tmp/e" --header
check_err "ltt gen: --prefix '9x': give the start of C names (letters, digits, '_', not a digit first), e.g. --prefix=myapp_" \
	"$tmp/yarn.xml" --prefix 9x -o "$tmp/e"
check_err "ltt gen: --prefix 'my-app': give the start of C names (letters, digits, '_', not a digit first), e.g. --prefix=myapp_" \
	"$tmp/yarn.xml" --prefix=my-app -o "$tmp/e"
check_err "ltt gen: --header names one facility's header and the files give 2 facilities: run ltt gen once per facility" \
	"$tmp/yarn.xml" "$SRCDIR/examples/jobs.xml" --header x.h -o "$tmp/e"
[ ! -e "$tmp/e" ] || fail "a refused run wrote $tmp/e"
echo ok
