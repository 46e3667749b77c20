#!/bin/sh
# SPDX-License-Identifier: MIT
# ltt gen output: deterministic, and compiles without a warning as C11 and C++ with gcc and clang
# (-Wall -Wextra -Werror), against libltt's real event path (ltt/ltt.h). Two translation units that
# include the same header share one struct ltt_facility and register it from both constructors.
set -u
cd "$SRCDIR" || exit 1
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
xml="tests/eventdefs/gentypes.xml eventdefs/core.xml tests/eventdefs/good/vector.xml tests/eventdefs/good/multi.xml
     tests/eventdefs/good/genpaths.xml"
mkdir "$dir/a" "$dir/b"
"$LTT" gen $xml -o "$dir/a" || { echo "ltt gen failed"; exit 1; }
"$LTT" gen $xml -o "$dir/b" || { echo "ltt gen failed"; exit 1; }
for h in gentypes core test multi_a multi_b genpaths; do
	[ -f "$dir/a/$h.h" ] || { echo "no $h.h"; exit 1; }
	cmp -s "$dir/a/$h.h" "$dir/b/$h.h" || { echo "$h.h differs between two runs"; exit 1; }
done
# regenerating an unchanged header leaves the file alone (no needless recompilation)
touch -d '2000-01-01' "$dir/a/core.h"
"$LTT" gen eventdefs/core.xml -o "$dir/a" || exit 1
[ "$(find "$dir/a/core.h" -newermt '2001-01-01')" = "" ] || { echo "unchanged core.h rewritten"; exit 1; }

cat >"$dir/use.c" <<'EOT'
#include "gentypes.h"
#include "core.h"
#include "test.h"
#include "multi_a.h"
#include "multi_b.h"
#include "genpaths.h"

void use(void);
void use(void)
{
	static const uint8_t bytes[4] = { 1, 2, 3, 4 };
	static const char *const names[2] = { "a", "b" };
	static const struct gentypes_point pts[2] = { { 1, 2 }, { 3, 4 } };
	static const struct gentypes_arrays_grid grid[2] = { { { 1, 2, 3 } }, { { 4, 5, 6 } } };
	static const struct test_pair pairs[3] = { { 1, 2 }, { 3, 4 }, { 5, 6 } };
	static const struct genpaths_inline_m_elem e2[2] = { { { 1, 2 } }, { { 3, 4 } } };
	struct genpaths_inline_m m[2];
	struct genpaths_outer o;
	struct gentypes_value v;

	memset(&v, 0, sizeof(v));
	memset(&o, 0, sizeof(o));
	o.in.v = 1;
	o.in.mode = GENPATHS_OUTER_IN_MODE_on;
	o.u.code = 1;
	o.u.u.b[0] = "x";
	o.u.u.b[1] = NULL;
	m[0].len = 2;
	m[0].data = e2;
	m[1].len = 0;
	m[1].data = NULL;
	trace_genpaths_by_ref(&o.in, &o.u);
	trace_genpaths_by_alias(&o.in, &o.u);
	trace_genpaths_inline(&o, m, GENPATHS_INLINE_K_B);
	trace_gentypes_noargs();
	trace_gentypes_ints(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14);
	trace_gentypes_floats(1, 2, 3, 4);
	trace_gentypes_strings("x", NULL);
	trace_gentypes_enums(GENTYPES_COLOR_green, GENTYPES_ENUMS_LEVEL_high);
	trace_gentypes_arrays(bytes, names, pts, grid);
	trace_gentypes_sequences(0, NULL, 2, names, 2, pts, 0, NULL);
	trace_gentypes_unions(&v, NULL);
	trace_gentypes_keywords(1, 2);
	trace_gentypes_whole(1, "n", &pts[0], 2, names);
	trace_core_thread_exit(5);
	trace_core_process("p", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, CORE_PROCESS_STATE_Zombie);
	trace_test_ev_one(1, -1, "s", TEST_EV_ONE_E_X, 0, NULL, pairs);
	trace_multi_a_x();
	trace_multi_b_x(3);
}
EOT
cat >"$dir/main.c" <<'EOT'
#include "gentypes.h"

void use(void);
struct ltt_facility *other(void);
struct ltt_facility *other(void)
{
	return &ltt_facility_gentypes;
}
EOT
n=0
for cc in "gcc -std=c11" "clang -std=c11" "g++ -x c++" "clang++ -x c++"; do
	command -v ${cc%% *} >/dev/null 2>&1 || { echo "note: ${cc%% *} not found"; continue; }
	for f in use main; do
		$cc -Wall -Wextra -Werror -Wshadow -O2 -I"$SRCDIR/include" -I"$dir/a" -c "$dir/$f.c" \
			-o "$dir/$f.o" || { echo "$cc: $f.c does not compile"; exit 1; }
	done
	n=$((n + 1))
done
[ $n -ge 2 ] || { echo "fewer than two compilers ran"; exit 1; }

# one facility object per program: with hooks, a program links without libltt and checks it
cat >"$dir/weak.c" <<'EOT'
#include <stdio.h>
struct ltt_facility;
extern int registered;
extern struct ltt_facility *seen[8];
static int hook_register(struct ltt_facility *f)
{
	seen[registered++ & 7] = f;
	return 0;
}
#define LTT_GEN_IS_RECORDING() 0
#define LTT_GEN_RESERVE(s, f, i, l, fl) ((void)(s), (void)(f), (void)(i), (void)(l), (void)(fl), 0)
#define LTT_GEN_COMMIT(s) ((void)(s))
#define LTT_GEN_REGISTER(f) hook_register(f)
#include "gentypes.h"
#ifdef SECOND
struct ltt_facility *second(void);
struct ltt_facility *second(void)
{
	return &ltt_facility_gentypes;
}
#else
int registered;
struct ltt_facility *seen[8];
struct ltt_facility *second(void);
int main(void)
{
	trace_gentypes_noargs();
	if (second() != &ltt_facility_gentypes || registered != 2 || seen[0] != seen[1] ||
	    seen[0] != &ltt_facility_gentypes) {
		printf("facility objects: %p %p, registered %d\n", (void *)second(),
		       (void *)&ltt_facility_gentypes, registered);
		return 1;
	}
	return 0;
}
#endif
EOT
cc -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$dir/a" -c "$dir/weak.c" -o "$dir/w1.o" &&
cc -std=gnu11 -Wall -Wextra -Werror -DSECOND -I"$SRCDIR/include" -I"$dir/a" -c "$dir/weak.c" -o "$dir/w2.o" &&
cc -o "$dir/weak" "$dir/w1.o" "$dir/w2.o" || { echo "weak test does not build"; exit 1; }
"$dir/weak" || { echo "not one facility object per program"; exit 1; }

# every call of use() encodes exactly what it reserved, and the model (parsed from the XML each
# header embeds) sizes the bytes written as the generated code did
cat >"$dir/sizes.c" <<'EOT'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ltt/eventdefs.h>
struct ltt_slot;
struct ltt_facility;
static int hook_reserve(struct ltt_slot *s, struct ltt_facility *f, unsigned i, size_t len, unsigned fl);
static void hook_commit(struct ltt_slot *s);
#define LTT_GEN_IS_RECORDING() 1
#define LTT_GEN_RESERVE(s, f, i, l, fl) hook_reserve(s, f, i, l, fl)
#define LTT_GEN_COMMIT(s) hook_commit(s)
#define LTT_GEN_REGISTER(f) ((void)(f), 0)
#include "use.c"
static unsigned char buf[1 << 16];
static size_t want;
static unsigned idx, calls, bad;
static struct ltt_facility *fac;
static int hook_reserve(struct ltt_slot *s, struct ltt_facility *f, unsigned i, size_t len, unsigned fl)
{
	(void)fl;
	memset(buf, 0x5a, sizeof(buf));
	s->payload = (char *)buf;
	fac = f;
	idx = i;
	want = len;
	return len < sizeof(buf) - 1;
}
static void hook_commit(struct ltt_slot *s)
{
	struct ltt_eventdefs *d;
	char err[256];
	size_t n = 0;
	const struct ltt_type_desc *body;
	uint16_t one = 1;

	(void)s;
	calls++;
	if (ltt_eventdefs_parse_mem(fac->xml, strlen(fac->xml), fac->name, &d, err, sizeof(err))) {
		printf("%s: embedded XML does not parse: %s\n", fac->name, err);
		bad++;
		return;
	}
	body = d->facilities[0].events[idx].body;
	if (d->facilities[0].checksum != fac->checksum || buf[want] != 0x5a ||
	    (body ? ltt_type_encoded_size(body, ltt_arch_size_host(), *(unsigned char *)&one == 0, buf, want,
					  &n) : 0) || n != want) {
		printf("%s event %u: reserved %zu, model sizes %zu\n", fac->name, idx, want, n);
		bad++;
	}
	ltt_eventdefs_free(d);
}
int main(void)
{
	use();
	printf("%u events checked\n", calls);
	return bad || calls != 17;	/* every call of use() but the union one with a NULL pointer */
}
EOT
cc ${SANITIZE:+-fsanitize=$SANITIZE} -std=gnu11 -Wall -Wextra -Werror -I"$SRCDIR/include" -I"$dir/a" -I"$dir" -o "$dir/sizes" "$dir/sizes.c" \
	"$BUILD/lib/libltt-eventdefs.a" -lxml2 || { echo "size check does not build"; exit 1; }
"$dir/sizes" || { echo "generated sizes disagree with the model"; exit 1; }
echo "ok: deterministic, $n compilers, one facility object, sizes agree with the model"
