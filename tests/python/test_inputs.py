# SPDX-License-Identifier: MIT
# What ltt.open takes, as `ltt dump` takes it: a recorded trace (tid), the 2004 trace, a damaged trace, a
# packed .tar.gz, flight-recorder and chunked captures, several traces, the filters; errors as exceptions.
import os
import shutil

import pytest

import ltt
from conftest import BUILD, LTT, dump_json, norm, run

REF = os.path.join(os.environ.get("LTT_SHARED", os.path.join(os.environ["SRCDIR"], "..", "shared")), "reference")


def same_events(trace, want, several=False):
    got = list(trace)
    assert len(got) == len(want)
    for ev, j in zip(got, want):
        assert (ev.ts_ns, ev.tracefile, ev.facility, ev.event) == (j["ts_ns"], j["cpu"], j["facility"], j["event"])
        assert norm(ev.fields) == j["fields"]
        if several:
            assert ev.trace == j["trace"]
    return got


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A trace recorded by a real program: three threads and the main one, seltid events with a tid."""
    d = tmp_path_factory.mktemp("rec")
    path = str(d / "st")
    env = dict(os.environ, LTT_TRACE=path)
    import subprocess
    subprocess.run([os.path.join(BUILD, "tests", "progs", "select_tid"), "run", "5"], env=env, check=True)
    return path


def test_recorded_tid(recorded):
    want, err = dump_json(recorded)
    assert err == []
    got = same_events(ltt.open(recorded), want)
    seltid = [e for e in got if e.facility == "seltid"]
    assert len(seltid) == 1 + 3 * 3 * 5
    with_tid = [e for e in got if "tid" in e.fields]     # seltid.work and .tick (context="tid"), not .op
    assert sum(1 for e in with_tid if e.facility == "seltid") == 1 + 2 * 3 * 5
    assert all(e.tid == e.fields["tid"] and e.tid > 0 for e in with_tid)
    assert all(e.tid is None for e in got if "tid" not in e.fields)
    df = ltt.open(recorded).to_pandas()
    assert [int(x) for x in df["tid"].dropna()] == [e.tid for e in with_tid]
    work = ltt.open(recorded).to_numpy("seltid.work")
    assert sorted(work["what"].tolist()) == ["boss"] + ["worker-%d" % i for i in range(3) for _ in range(5)]
    assert work["tid"].dtype.name == "uint32"


def test_2004_trace():
    path = os.path.join(REF, "lttv-smp-example")
    if not os.path.isdir(path):     # as tests/e2e/lib/reference.sh
        why = "reference data not found: %s" % path
        if os.environ.get("LTT_REQUIRE_REFERENCE") == "1":
            pytest.fail(why + " (LTT_REQUIRE_REFERENCE=1)")
        pytest.skip(why + " (set LTT_SHARED to the directory holding reference/)")
    want, err = dump_json(path)
    assert err == [] and len(want) == 173151
    t = ltt.open(path)
    same_events(t, want)
    assert t.traces[0]["minor_version"] <= 2
    traps = [j for j in want if j["event"] == "trap_entry"]
    cols = t.to_numpy("core.trap_entry")
    assert cols["ts_ns"].tolist() == [j["ts_ns"] for j in traps]
    assert cols["trap_id"].tolist() == [j["fields"]["trap_id"] for j in traps]
    assert cols["address"].tolist() == [j["fields"]["address"] for j in traps]
    assert t.sql_rows("SELECT count(*) FROM events")[1] == [(len(want),)]
    assert t.problems == []


def poke(path, offset, data):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(data)


def test_damaged(types, tmp_path):
    bad = str(tmp_path / "bad")
    shutil.copytree(types, bad)
    poke(os.path.join(bad, "cpu", "0"), 32, b"\x77\x77")         # an unknown event id
    poke(os.path.join(bad, "cpu", "1"), 96, b"\x07")             # a union code out of range
    want, err = dump_json(bad, ok=False)
    assert err and len(want) < 9
    t = ltt.open(bad)
    same_events(t, want)
    # the problems as the command prints them, each once however many passes meet them
    t.to_numpy("types.nested")
    t.to_pandas()
    assert sorted(str(p) for p in t.problems) == sorted(set(line[len("ltt dump: "):] for line in err))
    p = t.problems[0]
    assert p.trace == bad and p.file == "cpu/0" and p.offset == 32 and "unknown event id" in p.what
    # a trace that cannot be opened: ltt.Error naming the file
    shutil.rmtree(os.path.join(bad, "eventdefs"))
    open(os.path.join(bad, "info", "system.xml"), "w").write("<system\n")
    with pytest.raises(ltt.Error) as e:
        ltt.open(bad)
    assert "info/system.xml" in str(e.value)


def test_archive(types, tmp_path):
    packed = str(tmp_path / "ty.tar.gz")
    run(LTT, "pack", types, "-o", packed)
    want, err = dump_json(packed)
    assert err == [] and len(want) == 9
    t = ltt.open(packed)
    same_events(t, want)
    assert t.traces[0]["path"] == packed and t.traces[0]["dir"] != packed
    assert t.to_numpy("types.scalars")["u8"].tolist() == [255, 0]
    assert t.sql_rows("SELECT count(*) FROM types_text")[1] == [(3,)]
    unpacked = t.traces[0]["dir"]
    assert os.path.isdir(unpacked)
    t.close()
    del t
    import gc
    gc.collect()
    assert not os.path.exists(unpacked)


def test_captures(tmp_path):
    prog = os.path.join(BUILD, "tests", "progs", "newcomer_emit")
    import subprocess
    for n in (4, 6):
        subprocess.run([prog, str(n), "0"], env=dict(os.environ, LTT_MODE="flight", LTT_TRACE=str(tmp_path / ("s%d" % n))),
                       check=True)
        subprocess.run([prog, str(n), "0"], env=dict(os.environ, LTT_TRACE=str(tmp_path / ("c%d" % n))), check=True)
    f = tmp_path / "f"
    f.mkdir()
    for sub in ("info", "eventdefs"):
        shutil.copytree(tmp_path / "s4" / sub, f / sub)
    os.rename(tmp_path / "s4" / "snapshot-0001", f / "snapshot-0001")
    os.rename(tmp_path / "s6" / "snapshot-0001", f / "snapshot-0002")
    c = tmp_path / "c"
    c.mkdir()
    os.rename(tmp_path / "c4", c / "chunk-0001")
    os.rename(tmp_path / "c6", c / "chunk-0002")
    for path, flags, opts, n in ((f, [], {}, 6), (f, ["--all-snapshots"], {"all_snapshots": True}, 10), (c, [], {}, 10)):
        want, err = dump_json(*flags, str(path))
        t = ltt.open(str(path), **opts)
        got = same_events(t, want, several=len(t.traces) > 1)
        assert sum(1 for e in got if e.facility == "rtest") == n
        assert [line[len("ltt dump: "):] for line in err] == t.notes
    assert ltt.open(str(f)).notes == ["%s: flight-recorder trace: reading its newest snapshot, %s/snapshot-0002 "
                                      "(2 snapshots; --all-snapshots reads them all)" % (f, f)]


def test_several_traces(types, tmp_path):
    other = str(tmp_path / "other")
    shutil.copytree(types, other)
    want, err = dump_json(types, other)
    assert err == [] and len(want) == 18
    t = ltt.open(types, other)
    same_events(t, want, several=True)
    assert len(t.traces) == 2 and t.counts["events"] == 18 and len(t.counts["traces"]) == 2
    assert len(t.to_numpy("types.scalars")["ts_ns"]) == 4
    assert t.to_pandas()["trace"].tolist() == [j["trace"] for j in want]


FILTERS = [
    (["--event", "types.t*", "--cpu", "0"], {"event": "types.t*", "cpu": 0}),
    (["--event", "nested", "--event", "empty"], {"event": ["nested", "empty"]}),
    (["--facility", "ty*"], {"facility": "ty*"}),
    (["--from", "1700000000.0000012", "--to", "+2.5"], {"from_": "1700000000.0000012", "to": "+2.5"}),
    (["--from", "+2"], {"from": "+2"}),
    (["--to", "1700000001.5"], {"to": 1700000001.5}),             # seconds as a float (not to the ns)
    (["--to", "1700000003"], {"to": 1700000003}),
    (["--cpu", "1", "--all"], {"cpu": [1], "all": True}),
    (["--all"], {"all": True}),
]


@pytest.mark.parametrize("args,filters", FILTERS, ids=[" ".join(a) for a, _ in FILTERS])
def test_filters(types, args, filters):
    want, err = dump_json(*args, types)
    assert err == []
    t = ltt.open(types, **filters)
    same_events(t, want)
    df = t.to_pandas()
    assert df["ts_ns"].tolist() == [j["ts_ns"] for j in want]
    if not filters.get("all"):
        scalars = [j for j in want if j["event"] == "scalars"]
        assert t.to_numpy("types.scalars")["ts_ns"].tolist() == [j["ts_ns"] for j in scalars]


def test_errors(types, tmp_path):
    with pytest.raises(ltt.Error) as e:
        ltt.open(str(tmp_path / "nothing"))
    assert e.value.errno and str(tmp_path / "nothing") in str(e.value)
    with pytest.raises(ltt.Error) as e:
        ltt.open(types, from_="soon")
    assert "--from soon: expected SECONDS[.FRACTION] or +SECONDS" in str(e.value)
    with pytest.raises(ValueError):
        ltt.open(types, cpu="x")
    with pytest.raises(TypeError):
        ltt.open(types, colour="red")
    with pytest.raises(TypeError):
        ltt.open()
    t = ltt.open(types)
    with pytest.raises(KeyError):
        t.to_numpy("types.nope")
    with pytest.raises(ValueError):
        t.to_numpy("scalars")
    with pytest.raises(ltt.Error):
        t.sql("SELEC 1")
    assert issubclass(ltt.Error, OSError)
