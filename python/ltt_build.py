# SPDX-License-Identifier: MIT
"""The build backend of the `ltt` Python package (PEP 517; python/pyproject.toml and the tree's root
pyproject.toml name it): `pip install ./python` builds a wheel of the package and installs it into the
active environment (doc/python.md).

The C part is built by the tree's own Makefile (`make python-module`: libltt-reader, the toolkit and
ltt._ltt, on CPython's limited API of 3.8, one `_ltt.abi3.so` for every CPython from 3.8 on), so the
package is built with the flags, warnings and room boundaries of the rest of ltt; this file only runs
make and packs the result as a wheel (a zip file with a dist-info directory, PEP 427). It is written
here rather than using setuptools because the build needs nothing from the environment but the
standard library: no build requirements at all (`requires = []`), so pip builds it offline with or
without build isolation, in interpreters without setuptools or wheel (pyenv's 3.12 and 3.13 have
neither) and in a fresh venv.

    python3 python/ltt_build.py wheel DIR     # what `make wheel` runs: packs the built module

Environment: LTT_BUILD (the build directory, default the tree's build/), LTT_PREBUILT=1 (pack what
is built, run no make: `make wheel` builds first), MAKE (default make).
"""
import base64
import hashlib
import os
import re
import subprocess
import sys
import sysconfig
import zipfile

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "ltt"
TAG = "cp38-abi3"  # the stable ABI of CPython 3.8 (python/pyltt.h: Py_LIMITED_API 0x03080000)

SUMMARY = "Read ltt traces (LTT trace format) in Python: iteration, NumPy columns, pandas, SQL"
DESCRIPTION = """\
The `ltt` module reads the traces of ltt, a trace recorder for C programs: `ltt.open(path)` opens trace
directories, flight-recorder captures and packed traces as `ltt dump` does; iterating gives the events
in time order; `to_numpy()` and `to_pandas()` give columns filled in C that NumPy wraps without a copy;
`sql()` runs `ltt sql`'s tables. NumPy and pandas are optional. See doc/python.md in the ltt tree.
"""


def _version():
    with open(os.path.join(SRC, "Makefile")) as f:
        for line in f:
            m = re.match(r"VERSION\s*:=\s*(\S+)", line)
            if m:
                return m.group(1)
    raise RuntimeError("ltt_build: no VERSION := line in %s/Makefile" % SRC)


def _build_dir():
    return os.path.abspath(os.environ.get("LTT_BUILD") or os.path.join(SRC, "build"))


def _make():
    """Builds the module with the tree's Makefile; the directory of the built package."""
    if not os.path.exists(os.path.join(SRC, "python", "pyltt.h")) or not os.path.exists(os.path.join(SRC, "Makefile")):
        raise RuntimeError("ltt_build: %s is not the ltt source tree (python/ltt_build.py builds from the tree "
                           "it sits in: pip install PATH/TO/ltt/python, with pip 21.3 or later)" % SRC)
    build = _build_dir()
    if os.environ.get("LTT_PREBUILT") != "1":
        env = dict(os.environ)
        for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL"):  # pip run from a make: a make of its own
            env.pop(k, None)
        jobs = str(min(os.cpu_count() or 1, 8))
        # BUILD as the tree's own make names it (relative inside the tree): the compile lines name it, and
        # another spelling of the same directory would rebuild everything
        rel = os.path.relpath(build, SRC)
        cmd = [os.environ.get("MAKE", "make"), "-C", SRC, "-j" + jobs,
               "BUILD=" + (build if rel.startswith("..") else rel), "python-module"]
        print("ltt_build: " + " ".join(cmd), file=sys.stderr)
        # make's output on stderr: pip shows it when the build fails (and with -v)
        p = subprocess.run(cmd, env=env, stdout=sys.stderr, stderr=sys.stderr)
        if p.returncode != 0:
            raise RuntimeError("ltt_build: %s failed (exit %d): the messages above name the cause; "
                               "`make deps` (as root) installs the Debian packages the build needs"
                               % (" ".join(cmd), p.returncode))
    pkg = os.path.join(build, "python", NAME)
    so = os.path.join(pkg, "_ltt.abi3.so")
    if not os.path.exists(so):
        raise RuntimeError("ltt_build: %s is not built (make python-module)" % so)
    return pkg


def _platform():
    return re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def _metadata(version):
    return "".join([
        "Metadata-Version: 2.1\n",
        "Name: %s\n" % NAME,
        "Version: %s\n" % version,
        "Summary: %s\n" % SUMMARY,
        "License: MIT\n",
        "Requires-Python: >=3.8\n",
        "Provides-Extra: numpy\n",
        "Requires-Dist: numpy; extra == \"numpy\"\n",
        "Provides-Extra: pandas\n",
        "Requires-Dist: numpy; extra == \"pandas\"\n",
        "Requires-Dist: pandas; extra == \"pandas\"\n",
        "Description-Content-Type: text/markdown\n",
        "\n",
        DESCRIPTION,
    ])


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d\n" % (arcname, digest, len(data))


def _pack(wheel_directory):
    version = _version()
    pkg = _make()
    tag = "%s-%s" % (TAG, _platform())
    info = "%s-%s.dist-info" % (NAME, version)
    files = []
    for name in sorted(os.listdir(pkg)):
        path = os.path.join(pkg, name)
        if os.path.isfile(path) and (name.endswith(".py") or name == "_ltt.abi3.so"):
            with open(path, "rb") as f:
                files.append(("%s/%s" % (NAME, name), f.read(), 0o755 if name.endswith(".so") else 0o644))
    files.append(("%s/METADATA" % info, _metadata(version).encode(), 0o644))
    files.append(("%s/WHEEL" % info, ("Wheel-Version: 1.0\nGenerator: ltt_build (python/ltt_build.py)\n"
                                      "Root-Is-Purelib: false\nTag: %s\n" % tag).encode(), 0o644))
    files.append(("%s/top_level.txt" % info, (NAME + "\n").encode(), 0o644))
    record = "".join(_record_line(a, d) for a, d, _ in files) + "%s/RECORD,,\n" % info
    files.append(("%s/RECORD" % info, record.encode(), 0o644))
    os.makedirs(wheel_directory, exist_ok=True)
    wheel = "%s-%s-%s.whl" % (NAME, version, tag)
    tmp = os.path.join(wheel_directory, wheel + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as z:
        for arcname, data, mode in files:
            zi = zipfile.ZipInfo(arcname, date_time=(1980, 1, 1, 0, 0, 0))  # reproducible
            zi.external_attr = (0o100000 | mode) << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(zi, data)
    os.replace(tmp, os.path.join(wheel_directory, wheel))
    return wheel


# ---- PEP 517 hooks ----------------------------------------------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _pack(wheel_directory)


def build_sdist(sdist_directory, config_settings=None):
    raise RuntimeError("ltt_build: no source distribution: the module is built from the ltt source tree "
                       "(pip install PATH/TO/ltt/python) or shipped as a wheel (make wheel)")


if __name__ == "__main__":
    if len(sys.argv) != 3 or sys.argv[1] != "wheel":
        sys.exit("usage: ltt_build.py wheel DIR")
    try:
        print(os.path.join(sys.argv[2], _pack(sys.argv[2])))
    except RuntimeError as e:
        sys.exit(str(e))
