# SPDX-License-Identifier: MIT
# No leak over 1000 open/close cycles, each using every part of the module: Python objects (tracemalloc,
# sys.gettotalrefcount on a debug build), the C heap (glibc's mallinfo2: what the module and the reader
# allocate) and the process's RSS.
import ctypes
import gc
import os
import sys
import tracemalloc

import ltt

CYCLES = 1000
WARMUP = 100


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def c_heap():
    """Bytes in use in the C heap (0 where the allocator is not glibc's: under ASan)."""
    libc = ctypes.CDLL(None)
    try:
        f = libc.mallinfo2
    except AttributeError:
        return 0
    f.restype = _Mallinfo2
    m = f()
    return m.uordblks + m.hblkhd


def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def cycle(path):
    t = ltt.open(path, cpu=[0, 1], to="+10")
    n = sum(1 for ev in t if ev.fields is not None)
    cols = t.to_numpy("types.nested")
    df = t.to_pandas()
    rows = t.sql_rows("SELECT count(*) FROM types_scalars")
    info = (t.counts["events"], len(t.event_types), t.attrs["node_name"], t.problems)
    t.close()
    assert n == 8 and len(cols["ts_ns"]) == 2 and len(df) == 8 and rows[1] == [(2,)] and info[0] == 9
    return n


def test_open_close_cycles(types):
    for _ in range(WARMUP):
        cycle(types)
    # the C heap and the RSS first, without tracemalloc: its own tables are C heap too, and grow with
    # the number of Python blocks alive at the peak of a cycle (pandas's), not with what the module keeps
    gc.collect()
    heap0, rss0 = c_heap(), rss()
    for _ in range(CYCLES):
        cycle(types)
    gc.collect()
    heap1, rss1 = c_heap(), rss()
    assert heap1 - heap0 < 64 * 1024, "C heap grew by %d bytes over %d cycles" % (heap1 - heap0, CYCLES)
    assert rss1 - rss0 < 4 * 1024 * 1024, "RSS grew by %d bytes over %d cycles" % (rss1 - rss0, CYCLES)
    tracemalloc.start()
    refs0 = sys.gettotalrefcount() if hasattr(sys, "gettotalrefcount") else None
    snap0 = tracemalloc.take_snapshot()
    for _ in range(CYCLES):
        cycle(types)
    gc.collect()
    snap1 = tracemalloc.take_snapshot()
    refs1 = sys.gettotalrefcount() if refs0 is not None else None
    tracemalloc.stop()
    # what the module allocates is attributed to the Python line that called it: the package's lines or
    # this file's (pandas's and NumPy's own caches, attributed to theirs, are left out)
    ours = [tracemalloc.Filter(True, "*/ltt/__init__.py"), tracemalloc.Filter(True, __file__)]
    diff = snap1.filter_traces(ours).compare_to(snap0.filter_traces(ours), "lineno")
    grown = sum(s.size_diff for s in diff if s.size_diff > 0)
    # a leak of one object per cycle would be 1000 objects, tens of KiB at least
    assert grown < 16 * 1024, [str(s) for s in diff[:10]]
    if refs0 is not None:
        assert refs1 - refs0 < 100, "%d references more" % (refs1 - refs0)
    # every object of the module's types holds a reference to its (heap) type: none is left alive
    from ltt import _ltt
    kinds = (_ltt.Column, _ltt.Event, _ltt.Trace)
    alive = [sys.getrefcount(k) for k in kinds]
    for _ in range(10):
        cycle(types)
    gc.collect()
    assert [sys.getrefcount(k) for k in kinds] == alive


def test_archive_cycles(types, tmp_path):
    """An archive is unpacked for the Trace's lifetime: nothing left behind, no descriptor kept."""
    from conftest import LTT, run
    packed = str(tmp_path / "ty.tar.gz")
    run(LTT, "pack", types, "-o", packed)
    fds0 = len(os.listdir("/proc/self/fd"))
    dirs = set()
    for _ in range(200):
        t = ltt.open(packed)
        dirs.add(t.traces[0]["dir"])
        assert len(list(t)) == 9
        t.sql_rows("SELECT count(*) FROM events")
        t.close()
    gc.collect()
    assert len(os.listdir("/proc/self/fd")) == fds0
    assert not [d for d in dirs if os.path.exists(d)]
