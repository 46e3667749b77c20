# SPDX-License-Identifier: MIT
"""Uses the module as a user of one interpreter would (tests/e2e/python_versions.sh runs it with every
CPython of the machine and in fresh venvs; not a pytest file): its events against `ltt dump
--format=json`, its counts against `ltt stats --format=json`, sql(), and to_numpy()/to_pandas() where
NumPy is (the arrays over the module's memory, no copy), the ImportError saying NumPy is needed where
it is not. Below 3.8 the import must be refused, naming 3.8. Standard library only; runs on 3.6.

    abi3_use.py TRACE DUMP_JSON STATS_JSON [--no-numpy] [--module-under DIR]

Prints one line (what was checked) and exits 0, or prints what differs and exits 1."""
import json
import math
import sys


def fail(msg):
    print("FAIL: Python %s (%s): %s" % (sys.version.split()[0], sys.executable, msg))
    sys.exit(1)


def norm(v):
    if isinstance(v, float) and (math.isnan(v) or math.isinf(v)):
        return None
    if isinstance(v, list):
        return [norm(x) for x in v]
    if isinstance(v, dict):
        return dict((k, norm(x)) for k, x in v.items())
    return v


def main():
    args = sys.argv[1:]
    no_numpy = "--no-numpy" in args
    under = None
    if "--module-under" in args:
        under = args[args.index("--module-under") + 1]
    trace, dump, stats = args[:3]
    if no_numpy:  # as an interpreter without them: their import fails
        sys.modules["numpy"] = None
        sys.modules["pandas"] = None
    if sys.version_info < (3, 8):
        try:
            import ltt  # noqa: F401
        except ImportError as e:
            if "needs CPython 3.8 or later" not in str(e):
                fail("refused, but not saying 3.8: %s" % e)
            print("Python %s: refused as it should be: %s" % (sys.version.split()[0], e))
            return
        fail("imported below 3.8")
    import ltt
    so = ltt._ltt.__file__
    if not so.endswith("/_ltt.abi3.so"):
        fail("the module imported is %s, not the abi3 build" % so)
    if under and not so.startswith(under):
        fail("the module imported is %s, not the one under %s" % (so, under))
    want = [json.loads(line) for line in open(dump)]
    t = ltt.open(trace)
    got = list(t)
    if len(got) != len(want):
        fail("iteration: %d events, ltt dump %d" % (len(got), len(want)))
    for ev, j in zip(got, want):
        if (ev.ts_ns, ev.cycles, ev.tracefile, ev.facility, ev.event) != \
                (j["ts_ns"], j["cycles"], j["cpu"], j["facility"], j["event"]) or norm(ev.fields) != j["fields"]:
            fail("iteration: %r, ltt dump %r" % (ev, j))
    # sql(): a list of tuples without pandas, a DataFrame with it
    names, rows = t.sql_rows("SELECT ts_ns, tracefile, facility, event FROM events ORDER BY ts_ns, tracefile")
    expect = sorted((j["ts_ns"], j["cpu"], j["facility"], j["event"]) for j in want)
    if names != ["ts_ns", "tracefile", "facility", "event"] or rows != expect:
        fail("sql_rows: %r %r, ltt dump %r" % (names, rows, expect))
    q = "SELECT count(*) AS n FROM events"
    r = t.sql(q)
    try:
        import pandas  # noqa: F401
        have_pandas = True
    except ImportError:
        have_pandas = False
    if have_pandas:
        if r["n"].tolist() != [len(want)]:
            fail("sql() with pandas: %r" % r)
    elif r != [(len(want),)]:
        fail("sql() without pandas: %r" % (r,))
    # counts: those of ltt stats
    st = [json.loads(line) for line in open(stats) if line.startswith("{")]
    c = t.counts
    for k in ("events", "builtin_records", "lost", "overwritten", "overwritten_blocks"):
        if c[k] != sum(s["counts"][k] for s in st):
            fail("counts[%r] = %r, ltt stats %r" % (k, c[k], [s["counts"][k] for s in st]))
    scalars = [j for j in want if j["event"] == "scalars"]
    try:
        import numpy as np
    except ImportError:
        np = None
    if np is None:
        for call in (lambda: t.to_numpy("types.scalars"), lambda: t.to_pandas("types.scalars"), t.to_pandas):
            try:
                call()
            except ImportError as e:
                if "needs NumPy" not in str(e):
                    fail("ImportError without saying NumPy is needed: %s" % e)
            else:
                fail("to_numpy()/to_pandas() without NumPy did not raise ImportError")
        arrays = "no NumPy: to_numpy() and to_pandas() raise ImportError naming NumPy"
    else:
        cols = t.to_numpy("types.scalars")
        if cols["ts_ns"].tolist() != [j["ts_ns"] for j in scalars]:
            fail("to_numpy ts_ns %r" % cols["ts_ns"])
        for k in scalars[0]["fields"]:
            if [norm(v) for v in cols[k].tolist()] != [j["fields"][k] for j in scalars]:
                fail("to_numpy %s: %r, ltt dump %r" % (k, cols[k], [j["fields"][k] for j in scalars]))
        for k, a in cols.items():  # NumPy's arrays over the module's memory, not copies
            if type(a.base).__name__ != "Column" or a.flags.owndata:
                fail("to_numpy %s: not over the module's Column (base %r)" % (k, type(a.base)))
        arrays = "NumPy %s: to_numpy() without a copy" % np.__version__
        if have_pandas:
            df = t.to_pandas("types.scalars")
            if df["u32"].tolist() != [j["fields"]["u32"] for j in scalars] or len(t.to_pandas()) != len(want):
                fail("to_pandas %r" % df)
            arrays += ", pandas %s: to_pandas()" % pandas.__version__
    print("Python %s: %d events, sql, counts as ltt dump and ltt stats; %s (%s)"
          % (sys.version.split()[0], len(got), arrays, so))


main()
