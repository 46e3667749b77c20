#!/bin/sh
# SPDX-License-Identifier: MIT
# Installing into a non-system prefix (issue 14 point 4): `make install PREFIX=DIR`, then a program
# built with `pkg-config --cflags --libs ltt` (PKG_CONFIG_PATH=DIR/lib/pkgconfig) runs without
# LD_LIBRARY_PATH and records a trace; so does its static link (the static_libs variable), and a
# reader program built with ltt-reader reads that trace back (README.md, "Instrumenting").
set -u
cd "$SRCDIR" || exit 1
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ltt-e2e-newcomer-pc.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v pkg-config >/dev/null || fail "pkg-config not installed (make deps)"

unset MAKEFLAGS MAKELEVEL MFLAGS
# BUILD as make check was given it: the run's environment has it absolute, and another spelling of the
# directory changes the compile line (-I$(BUILD)/gen, build/flags.txt), which would rebuild every object
case "$BUILD" in "$SRCDIR"/*) build=${BUILD#"$SRCDIR"/} ;; *) build=$BUILD ;; esac
make --no-print-directory install BUILD="$build" PREFIX="$tmp/opt" DESTDIR= > "$tmp/install.log" 2>&1 ||
	fail "make install: $(tail -5 "$tmp/install.log")"
export PKG_CONFIG_PATH="$tmp/opt/lib/pkgconfig"
unset LD_LIBRARY_PATH
pkg-config --exists ltt ltt-reader || fail "pkg-config does not find ltt and ltt-reader"
"$tmp/opt/bin/ltt" gen examples/jobs.xml -o "$tmp/gen" || fail "installed ltt gen"

# dynamic link: runs as built, from the prefix's libltt.so
cc ${SANITIZE:+-fsanitize=$SANITIZE} -D_GNU_SOURCE -o "$tmp/demo" examples/demo.c -I"$tmp/gen" $(pkg-config --cflags --libs ltt) -lpthread ||
	fail "build with pkg-config --libs ltt"
out=$(LTT_TRACE="$tmp/t-dyn" "$tmp/demo" 20 2 2>&1) || fail "dynamic demo does not run: $out"
ldd "$tmp/demo" | grep -Eq "libltt\.so\.[0-9]+ => $tmp/opt/lib/libltt\.so\.[0-9]+" || fail "not linked with the prefix's libltt: $(ldd "$tmp/demo")"
[ "$("$tmp/opt/bin/ltt" dump --event jobs.done "$tmp/t-dyn" | wc -l)" = 20 ] || fail "dynamic demo trace"

# static link: no libltt.so needed
cc ${SANITIZE:+-fsanitize=$SANITIZE} -D_GNU_SOURCE -o "$tmp/demo-static" examples/demo.c -I"$tmp/gen" $(pkg-config --cflags ltt) \
	$(pkg-config --variable=static_libs ltt) || fail "static build"
ldd "$tmp/demo-static" | grep -q libltt && fail "static demo still needs libltt.so"
LTT_TRACE="$tmp/t-static" "$tmp/demo-static" 30 2 >/dev/null 2>&1 || fail "static demo does not run"
[ "$("$tmp/opt/bin/ltt" dump --event jobs.done "$tmp/t-static" | wc -l)" = 30 ] || fail "static demo trace"

# a reader program, dynamic and static
cat > "$tmp/count.c" <<'EOT'
#include <stdio.h>
#include <ltt/reader.h>
int main(int argc, char **argv)
{
	struct ltt_reader *r;
	struct ltt_event ev;
	char err[512];
	long n = 0;

	if (argc < 2 || ltt_reader_open(&r, (const char *const *)argv + 1, 1, NULL, err, sizeof(err)))
		return 1;
	while (ltt_reader_next(r, &ev) == 1)
		n++;
	ltt_reader_close(r);
	printf("%ld\n", n);
	return 0;
}
EOT
cc ${SANITIZE:+-fsanitize=$SANITIZE} -D_GNU_SOURCE -o "$tmp/count" "$tmp/count.c" $(pkg-config --cflags --libs ltt-reader) || fail "reader build"
cc ${SANITIZE:+-fsanitize=$SANITIZE} -D_GNU_SOURCE -o "$tmp/count-static" "$tmp/count.c" $(pkg-config --cflags ltt-reader) \
	$(pkg-config --variable=static_libs ltt-reader) || fail "static reader build"
want=$("$tmp/opt/bin/ltt" dump "$tmp/t-static" | wc -l)
[ "$("$tmp/count" "$tmp/t-static")" = "$want" ] || fail "reader program: not $want events"
[ "$("$tmp/count-static" "$tmp/t-static")" = "$want" ] || fail "static reader program: not $want events"
echo ok
