#!/bin/sh
# SPDX-License-Identifier: MIT
# Issue 39: the module built once on the limited API (build/python/ltt/_ltt.abi3.so) imported and used
# by every CPython of the machine: Debian's python3 always (with NumPy and pandas, then as if without
# them), each of pyenv's when pyenv is there (~/.pyenv/versions or PYENV_ROOT; none with NumPy), the
# ones below 3.8 refusing it with an ImportError naming 3.8 (tests/python/abi3_use.py does the checking:
# events against ltt dump, counts against ltt stats, sql(), to_numpy() without a copy or the
# ImportError naming NumPy). Then `pip install ./python` into fresh venvs (Debian's python3 -m venv,
# python3-venv; pyenv's newest, which has no setuptools) offline, and `import ltt` there from another
# directory with no PYTHONPATH.
set -u
: "${BUILD:?}" "${SRCDIR:?}" "${LTT:?}"
if [ -n "${SANITIZE:-}" ]; then
	echo "skip: under SANITIZE the module is an ASan build, run by python_module.sh with the runtime preloaded"
	exit 77
fi
work=$(mktemp -d /tmp/ltt-e2e-pyver-XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
USE=$SRCDIR/tests/python/abi3_use.py
G=$SRCDIR/tests/golden/reader

"$BUILD/tests/progs/mktrace" -o "$work/ty" -e little -a LP64 -c 2 -b 4096 -f "$G/types.xml" -s "$G/types.script" ||
	fail "mktrace"
"$LTT" dump --format=json --threads=1 "$work/ty" > "$work/dump.json" || fail "ltt dump"
# ltt stats exits 1 on this trace's problems (its lost and overwritten blocks); the JSON is what counts
"$LTT" stats --format=json "$work/ty" > "$work/stats.json" 2> /dev/null
grep -q '"counts"' "$work/stats.json" || fail "ltt stats --format=json printed no counts"

# 1. every interpreter on the one build
pys=/usr/bin/python3
pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
for p in "$pyenv_root"/versions/*/bin/python3; do
	[ -x "$p" ] && pys="$pys $p"
done
[ -x "$pyenv_root/versions" ] || [ -d "$pyenv_root/versions" ] || echo "no pyenv here ($pyenv_root): Debian's python3 only"
for v in "$pyenv_root"/versions/2.*; do
	[ -d "$v" ] && echo "$(basename "$v"): skipped, not a Python 3 (the package is Python 3 only)"
done
n=0
for py in $pys; do
	PYTHONPATH=$BUILD/python PYTHONNOUSERSITE=1 PYTHONDONTWRITEBYTECODE=1 \
		"$py" "$USE" "$work/ty" "$work/dump.json" "$work/stats.json" --module-under "$BUILD/python/" ||
		fail "$py"
	n=$((n + 1))
done
# Debian's python3 as one without NumPy and pandas: everything but the arrays, and the clear error
PYTHONPATH=$BUILD/python PYTHONNOUSERSITE=1 PYTHONDONTWRITEBYTECODE=1 \
	/usr/bin/python3 "$USE" "$work/ty" "$work/dump.json" "$work/stats.json" --no-numpy ||
	fail "/usr/bin/python3 without NumPy"
echo "$n interpreters"

# 2. pip install ./python into fresh venvs, offline (the backend needs nothing but the standard
# library), then import ltt from elsewhere with no PYTHONPATH. LTT_BUILD: the build directory the
# tree's make uses, so the build is the one above (make finds nothing to do).
venv_use() {	# PYTHON NAME PIP-OPTIONS...
	py=$1 name=$2
	shift 2
	"$py" -m venv "$work/$name" > "$work/venv.log" 2>&1 ||
		fail "$py -m venv: $(tail -n 1 "$work/venv.log") (Debian: python3-venv)"
	LTT_BUILD=$BUILD "$work/$name/bin/python" -m pip install --no-index -q "$@" "$SRCDIR/python" \
		> "$work/pip.log" 2>&1 || { cat "$work/pip.log"; fail "pip install ./python in a venv of $py"; }
	(cd "$work" && env -u PYTHONPATH PYTHONNOUSERSITE=1 "$work/$name/bin/python" "$USE" "$work/ty" \
		"$work/dump.json" "$work/stats.json" --module-under "$work/$name/lib/") || fail "the venv of $py"
}
venv_use /usr/bin/python3 venv-debian --no-build-isolation
newest=
for p in "$pyenv_root"/versions/3.*/bin/python3; do
	[ -x "$p" ] || continue
	v=$("$p" -c 'import sys; print("%05d" % (sys.version_info[0] * 100 + sys.version_info[1]))')
	[ -z "$newest" ] || [ "$v" \> "${newest%% *}" ] && newest="$v $p"
done
[ -n "$newest" ] && venv_use "${newest#* }" venv-pyenv
echo "pip install ./python: venvs work"
