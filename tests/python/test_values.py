# SPDX-License-Identifier: MIT
# Every field type, both byte orders, two arch sizes: iteration, NumPy columns, pandas and SQL give the
# values `ltt dump --format=json` prints.
import json

import pytest

import ltt
from conftest import dump_json, norm, types_trace, LTT, run

VARIANTS = [(e, a) for e in ("little", "big") for a in ("LP64", "ILP32")]


def flatten(fields, value, prefix=""):
    """The columns of one event (struct fields flattened as a_b, as to_numpy and ltt sql name them)."""
    out = {}
    for name, ty in fields:
        key = prefix + name
        if ty[0] == "struct":
            out.update(flatten(ty[2], value[name], key + "_"))
        else:
            out["ts_ns_" if key == "ts_ns" else key] = value[name]
    return out


def column_value(v):
    return v.item() if hasattr(v, "item") else v


@pytest.fixture(params=VARIANTS, ids=["%s-%s" % v for v in VARIANTS])
def variant(request, tmp_path):
    e, a = request.param
    path = types_trace(tmp_path / ("ty-%s-%s" % (e, a)), e, a)
    want, err = dump_json(path)
    assert err == [] and len(want) == 9
    return path, want


def test_attributes(variant):
    path, _ = variant
    t = ltt.open(path)
    assert t.attrs["node_name"] == "mktrace"
    assert t.traces[0]["endian"] in ("little", "big") and t.traces[0]["block_size"] == 4096
    assert t.attrs["endian"] == t.traces[0]["endian"] and t.attrs["arch_size"] == t.traces[0]["arch_size"]
    assert sorted(t.facilities["types"]) == ["empty", "nested", "scalars", "text"]
    et = t.event_types["types.scalars"]
    assert [f[0] for f in et.fields] == ["u8", "i16", "u32", "i64", "l", "m", "f", "d"]
    assert et.fields[0][1] == ("uint", "1", None) and et.fields[4][1] == ("int", "long", None)
    assert t.event_types["types.text"].fields[1][1] == ("enum", "2", [("ZERO", 0), ("TEN", 10), ("ELEVEN", 11)])
    stats = json.loads(run(LTT, "stats", "--format=json", path).stdout)
    c = t.counts
    for k in ("events", "builtin_records", "lost", "overwritten", "overwritten_blocks"):
        assert c[k] == stats["counts"][k], k
    assert (c["events"], c["lost"], c["overwritten"]) == (9, 5, 40)


def test_iteration(variant):
    path, want = variant
    got = list(ltt.open(path))
    assert len(got) == len(want)
    for ev, j in zip(got, want):
        assert ev.ts_ns == j["ts_ns"] and ev.cycles == j["cycles"]
        assert ev.tracefile == j["cpu"]
        assert ev.cpu == (int(j["cpu"][4:]) if j["cpu"].startswith("cpu/") else None)
        assert (ev.facility, ev.event) == (j["facility"], j["event"])
        assert norm(ev.fields) == j["fields"]
        assert ev.tid is None and ev.trace == path


def test_numpy_pandas_sql(variant):
    path, want = variant
    t = ltt.open(path)
    for name in ("types.empty", "types.scalars", "types.text", "types.nested"):
        fac, evname = name.split(".")
        rows = [j for j in want if (j["facility"], j["event"]) == (fac, evname)]
        flat = [flatten(t.event_types[name].fields, j["fields"]) for j in rows]
        cols = t.to_numpy(name)
        assert list(cols) == ["ts_ns"] + (list(flat[0]) if flat else [])
        assert cols["ts_ns"].tolist() == [j["ts_ns"] for j in rows]
        for k in cols:
            if k != "ts_ns":
                assert [norm(column_value(v)) for v in cols[k]] == [f[k] for f in flat], (name, k)
        df = t.to_pandas(name)
        assert list(df.columns) == list(cols)
        for k in cols:
            assert [norm(column_value(v)) for v in df[k]] == [norm(column_value(v)) for v in cols[k]], (name, k)
        # ltt sql's table of the type: the same values (arrays, sequences, unions as JSON text)
        names, sql_rows = t.sql_rows("SELECT * FROM %s_%s" % (fac, evname))
        assert names[:5] == ["ts_ns", "trace", "tracefile", "cpu", "tid"]
        assert len(sql_rows) == len(rows)
        for r, j, f in zip(sql_rows, rows, flat):
            assert r[0] == j["ts_ns"] and r[2] == j["cpu"]
            for k, v in zip(names[5:], r[5:]):
                if isinstance(f[k], (list, dict)):
                    v = json.loads(v)
                assert v == f[k], (name, k)
        df = t.sql("SELECT * FROM %s_%s" % (fac, evname))
        assert list(df.columns) == names
        assert [[norm(v) for v in r] for r in df.values.tolist()] == [list(r) for r in sql_rows]
    # every event, fields as JSON text
    df = t.to_pandas()
    assert df["ts_ns"].tolist() == [j["ts_ns"] for j in want]
    assert df["tracefile"].tolist() == [j["cpu"] for j in want]
    assert df["facility"].tolist() == [j["facility"] for j in want]
    assert df["event"].tolist() == [j["event"] for j in want]
    assert df["cycles"].tolist() == [j["cycles"] for j in want]
    assert [json.loads(f) for f in df["fields"]] == [j["fields"] for j in want]
    assert df["cpu"].tolist() == [int(j["cpu"][4:]) if j["cpu"].startswith("cpu/") else -1 for j in want]
    assert df["tid"].isna().all()
    # the events table of ltt sql: the same rows
    names, rows = t.sql_rows("SELECT ts_ns, tracefile, facility, event, fields FROM events")
    assert [(r[0], r[1], r[2], r[3], json.loads(r[4])) for r in rows] == \
        [(j["ts_ns"], j["cpu"], j["facility"], j["event"], j["fields"]) for j in want]
    assert t.problems == []


def test_sql_like_the_command(types):
    t = ltt.open(types)
    q = "SELECT facility || '.' || event AS e, count(*) AS n FROM events GROUP BY e ORDER BY e"
    want = [tuple(json.loads(line).values()) for line in
            run(LTT, "sql", "--format=json", types, "-e", q).stdout.splitlines()]
    assert t.sql_rows(q)[1] == want
    assert t.sql_rows(q)[0] == ["e", "n"]
    assert t.sql_rows("SELECT 1; SELECT 2 AS two") == (["two"], [(2,)])
    with pytest.raises(ltt.Error) as e:
        t.sql("SELECT nope FROM events")
    assert "SQL: line 1, column 8: no such column: nope" in str(e.value)
