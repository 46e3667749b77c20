# SPDX-License-Identifier: MIT
"""The Python rows of `make bench` (bench/rows/python.sh): one way of reading the int3 events of a trace
into Python, timed inside the interpreter (imports and opening excluded), printed as
"events=N seconds=S cpu_seconds=C" (C: the process's CPU time over the same span).

    python_read.py numpy TRACE       ltt: Trace.to_numpy("bench.int3")
    python_read.py pandas TRACE      ltt: Trace.to_pandas("bench.int3")
    python_read.py iter TRACE        ltt: for ev in trace (ev.fields read)
    python_read.py bt2 CTFDIR N      babeltrace2's Python bindings on ltt's CTF export: the first N
                                     bench.int3 events, their fields a, b, c read into lists
"""
import sys
import time


def ltt_mode(mode, path):
    import ltt
    import numpy  # noqa: F401 (imported before the clock starts, as in a notebook: ltt imports it lazily)
    if mode == "pandas":
        import pandas  # noqa: F401 (imported before the clock starts, as in a notebook)
    t = ltt.open(path, event="bench.int3")
    c0, t0 = time.process_time(), time.perf_counter()
    if mode == "numpy":
        n = len(t.to_numpy("bench.int3")["a"])
    elif mode == "pandas":
        n = len(t.to_pandas("bench.int3")["a"])
    else:
        n = 0
        for ev in t:
            ev.fields
            n += 1
    return n, time.perf_counter() - t0, time.process_time() - c0


def bt2_mode(path, limit):
    import bt2
    it = bt2.TraceCollectionMessageIterator(path)
    a, b, c = [], [], []
    n = 0
    c0, t0 = time.process_time(), time.perf_counter()
    for msg in it:
        if type(msg) is not bt2._EventMessageConst:
            continue
        ev = msg.event
        if ev.name != "bench.int3" and ev.name != "int3":
            continue
        p = ev.payload_field
        a.append(int(p["a"]))
        b.append(int(p["b"]))
        c.append(int(p["c"]))
        n += 1
        if n >= limit:
            break
    return n, time.perf_counter() - t0, time.process_time() - c0


def main():
    mode = sys.argv[1]
    if mode == "bt2":
        n, s, c = bt2_mode(sys.argv[2], int(sys.argv[3]))
    else:
        n, s, c = ltt_mode(mode, sys.argv[2])
    print("events=%d seconds=%.6f cpu_seconds=%.6f" % (n, s, c))


main()
