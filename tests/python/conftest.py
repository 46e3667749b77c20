# SPDX-License-Identifier: MIT
# Fixtures of the Python module's tests (tests/e2e/python_module.sh runs them with Debian's python3 and
# PYTHONPATH=$BUILD/python): the ltt command, the test trace writer, the traces they make.
import json
import math
import os
import subprocess

import pytest

LTT = os.environ["LTT"]
BUILD = os.environ["BUILD"]
SRCDIR = os.environ["SRCDIR"]
G = os.path.join(SRCDIR, "tests", "golden", "reader")
MKTRACE = os.path.join(BUILD, "tests", "progs", "mktrace")


def run(*args, ok=True):
    p = subprocess.run([str(a) for a in args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if ok and p.returncode != 0:
        raise AssertionError("%s: exit %d: %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return p


def dump_json(*args, ok=True):
    """The events `ltt dump --format=json ARGS` prints (and its stderr lines)."""
    p = run(LTT, "dump", "--format=json", "--threads=1", *args, ok=ok)
    return [json.loads(line) for line in p.stdout.splitlines()], p.stderr.splitlines()


def types_trace(path, endian="little", arch="LP64"):
    run(MKTRACE, "-o", path, "-e", endian, "-a", arch, "-c", 2, "-b", 4096, "-f", os.path.join(G, "types.xml"),
        "-s", os.path.join(G, "types.script"))
    return str(path)


def norm(v):
    """A Python value as JSON has it: NaN and infinities are null."""
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return {k: norm(x) for k, x in v.items()}
    return v


@pytest.fixture
def types(tmp_path):
    return types_trace(tmp_path / "ty")
