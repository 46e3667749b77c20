#!/bin/sh
# SPDX-License-Identifier: MIT
# The Python module `ltt` (python/, doc/python.md): pytest runs tests/python/ with Debian's python3 on
# the module built in $BUILD/python. Under `make asan` the extension is built with ASan and UBSan, so
# python3 runs with the ASan runtime preloaded (it must come first in the process); leak detection is
# off there (the interpreter keeps its own allocations at exit: what the module leaks is measured by
# tests/python/test_leaks.py, with tracemalloc and the process's RSS).
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
PYTHON=${PYTHON:-/usr/bin/python3}
export PYTHONPATH="$BUILD/python" PYTHONDONTWRITEBYTECODE=1
if [ -n "${SANITIZE:-}" ]; then
	asan=$(${CC:-gcc} -print-file-name=libasan.so)
	[ -f "$asan" ] || { echo "no ASan runtime ($asan)"; exit 1; }
	export LD_PRELOAD="$asan" ASAN_OPTIONS="detect_leaks=0:abort_on_error=0" PYTHONMALLOC=malloc
	export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
fi
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
cd "$SRCDIR/tests/python" || exit 1
# -rs: a skip says why in one line (the 2004 trace's test without the reference data)
"$PYTHON" -m pytest -q -rs -p no:cacheprovider --basetemp="$work/pytest" "$@" .
