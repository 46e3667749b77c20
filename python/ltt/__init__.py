# SPDX-License-Identifier: MIT
"""ltt traces in Python (doc/python.md).

    import ltt
    trace = ltt.open("/tmp/mytrace")                  # what `ltt dump` takes, filters included
    for ev in trace:                                  # merged time order
        print(ev.ts_ns, ev.facility, ev.event, ev.fields)
    cols = trace.to_numpy("jobs.run")                 # {"ts_ns": array, "job": array, ...}
    df = trace.sql("SELECT * FROM jobs_run")          # `ltt sql`'s tables, a pandas DataFrame

The decoding is libltt-reader's, the opening and filters those of `ltt dump`, the SQL tables those of
`ltt sql` (the same C code, in process). One build serves every CPython from 3.8 on (the stable ABI,
abi3). NumPy and pandas are optional and never needed to build: the columns are filled in C and NumPy
(the interpreter's own, any version) wraps them without a copy. Without NumPy, to_numpy() and
to_pandas() raise ImportError; iteration, sql() (a list of tuples without pandas), counts and the rest
work.
"""
import sys

if sys.version_info < (3, 8):
    raise ImportError("ltt needs CPython 3.8 or later (its C part is built on the stable ABI of 3.8, abi3); "
                      "this is Python %s (%s)" % (sys.version.split()[0], sys.executable))

import collections  # noqa: E402 (after the version check)

from ltt import _ltt  # noqa: E402

__all__ = ["open", "Trace", "Event", "Problem", "Error", "EventType"]

Error = _ltt.Error
Event = _ltt.Event
version = _ltt.version


class Problem(collections.namedtuple("Problem", "trace file offset line what text")):
    """A problem found in a trace (a damaged block, an unknown event id, ...): the trace as given, the file
    in it ("cpu/0"), the byte offset (-1 when none), the XML line (0 when none), what, and the line
    `ltt dump` prints for it (str(problem))."""

    __slots__ = ()

    def __str__(self):
        return self.text


class EventType(collections.namedtuple("EventType", "facility name id builtin checksum fields")):
    """An event type of a trace: fields is a list of (name, type), a type being (kind, size, detail) with
    kind "int", "uint", "float", "string", "enum" (detail: [(label, value)]), "array" (detail:
    (length, element type)), "sequence" (detail: element type), "struct" or "union" (detail: fields)."""

    __slots__ = ()

    @property
    def full_name(self):
        return "%s.%s" % (self.facility, self.name)


def open(*paths, **filters):  # noqa: A001 (the module's verb, as ltt.open)
    """Opens traces as `ltt dump` does: trace directories, flight-recorder captures (the newest snapshot;
    all_snapshots=True for all), chunked captures, packed .tar.gz traces, several at once (merged).

    Filters, as `ltt dump` takes them: facility= and event= (a str or a list; * globs; an event as NAME or
    FACILITY.NAME), cpu= (an int or a list), from_= and to= (a str as --from/--to take it:
    "1062609024.3" or "+0.5" seconds after the start; or a number of seconds since the Epoch; `from`
    is accepted too, through **), all=True (the builtin events as well).

    Raises ltt.Error (an OSError) naming the file at fault when a trace cannot be opened."""
    if not paths:
        raise TypeError("ltt.open: no trace given")
    if "from" in filters:
        if "from_" in filters:
            raise TypeError("ltt.open: from and from_ both given")
        filters["from_"] = filters.pop("from")
    known = {"facility", "event", "cpu", "from_", "to", "all", "all_snapshots"}
    bad = sorted(set(filters) - known)
    if bad:
        raise TypeError("ltt.open: unknown filter %s (filters: %s)" % (", ".join(bad), ", ".join(sorted(known))))
    import os
    c, notes = _ltt.open([os.fspath(p) for p in paths], **filters)
    return Trace(c, notes)


def _numpy(what):
    try:
        import numpy
    except ImportError as e:
        raise ImportError("ltt: %s needs NumPy, which this Python (%s) cannot import: pip install numpy "
                          "(or apt-get install python3-numpy for Debian's python3); iteration, sql(), counts "
                          "and the rest work without it" % (what, sys.executable)) from e
    return numpy


def _pandas():
    _numpy("to_pandas()")
    try:
        import pandas
    except ImportError as e:
        raise ImportError("ltt: to_pandas() needs pandas, which this Python (%s) cannot import: pip install "
                          "pandas (or apt-get install python3-pandas); to_numpy() and sql() work without it"
                          % sys.executable) from e
    return pandas


def _arrays(np, columns):
    """The Columns of the C part as NumPy arrays over their memory (no copy: the array's base is the
    Column, which frees it); a masked column as (values, mask)."""
    return [tuple(np.asarray(x) for x in c) if isinstance(c, tuple) else np.asarray(c) for c in columns]


class Trace:
    """An open trace set (ltt.open). Iterating it yields ltt.Event objects in merged time order; every
    iteration, to_numpy() and to_pandas() reads the traces again (with the filters of open())."""

    def __init__(self, c, notes):
        self._c = c
        self.notes = list(notes)  # what opening a capture read ("reading its newest snapshot ...")
        self._info = c._info()
        self._counts = None

    def __iter__(self):
        return iter(self._c)

    def close(self):
        """Frees the trace (an archive's unpacked copy is removed); also done when the Trace is collected."""
        self._c = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _live(self):
        if self._c is None:
            raise ValueError("ltt: the trace is closed")
        return self._c

    @property
    def traces(self):
        """One dict per trace of the set: path, dir, attrs (info/system.xml), minor_version, endian,
        arch_size, block_size, ncpus, cycles_per_second, tracefiles."""
        return [{k: v for k, v in t.items() if k != "event_types"} for t in self._info]

    @property
    def attrs(self):
        """The system attributes (info/system.xml) of the first trace."""
        return dict(self._info[0]["attrs"])

    @property
    def event_types(self):
        """The event types of the traces (by facility.event, the first trace that has it), builtin first."""
        seen = {}
        for t in self._info:
            for fac, name, id_, builtin, checksum, body in t["event_types"]:
                key = "%s.%s" % (fac, name)
                if key not in seen:
                    fields = body[2] if body and body[0] == "struct" else []
                    seen[key] = EventType(fac, name, id_, bool(builtin), checksum, fields)
        return seen

    @property
    def facilities(self):
        """The facilities of the traces: {name: [event names]}."""
        out = {}
        for et in self.event_types.values():
            out.setdefault(et.facility, []).append(et.name)
        return out

    @property
    def counts(self):
        """The counts of the trace set as `ltt stats` counts them (every tracefile read through once, the
        filters aside): events, lost (dropped while recording), overwritten (events of blocks that
        never reached the file), overwritten_blocks, builtin_records; per trace in counts["traces"]."""
        if self._counts is None:
            per = self._live()._counts()
            total = {k: sum(p[k] for p in per) for k in per[0]} if per else {}
            total["traces"] = per
            self._counts = total
        return dict(self._counts)

    @property
    def problems(self):
        """The problems found so far in the traces (ltt.Problem), each once, in the order found: a
        damaged trace gives its good events and says here what it could not read."""
        return [Problem(*p) for p in self._live()._problems()]

    def to_numpy(self, event):
        """The events of one type ("facility.event") as columns: a dict of NumPy arrays, ts_ns then one
        per field (nested structs flattened as a_b; strings, enums, arrays, sequences and unions as
        object arrays), filled in C and wrapped by NumPy without a copy. Raises ImportError when NumPy
        is not installed."""
        np = _numpy("to_numpy()")
        names, columns = self._live()._columns(event)
        return dict(zip(names, _arrays(np, columns)))

    def to_pandas(self, event=None):
        """to_numpy(event) as a DataFrame; without event, every event (of the filters) with the columns of
        `ltt sql`'s events table: ts_ns, cycles, trace, tracefile, cpu (-1 for control files), tid (a
        nullable integer), facility, event, fields (JSON text, as ltt dump --format=json)."""
        pd = _pandas()
        import numpy as np
        if event is not None:
            names, columns = self._live()._columns(event)
            return pd.DataFrame(dict(zip(names, _arrays(np, columns))), copy=False)
        names, columns = self._live()._events()
        cols = {}
        for n, a in zip(names, _arrays(np, columns)):
            if isinstance(a, tuple):
                cols[n] = pd.arrays.IntegerArray(a[0], a[1])
            else:
                cols[n] = a
        return pd.DataFrame(cols, copy=False)

    def sql(self, query):
        """Runs the statements of query on `ltt sql`'s tables (events, one per event type, regions,
        threads, processes, lost, traces: doc/cli.md) and returns the last one's rows: a pandas
        DataFrame, or a list of tuples when pandas is not installed. The tables are those of the whole
        trace set (the filters of open() do not apply). A bad statement raises ltt.Error."""
        names, rows = self._live()._sql(query)
        try:
            import pandas as pd
        except ImportError:
            return rows
        return pd.DataFrame.from_records(rows, columns=names)

    def lost(self, start_ns=None, end_ns=None):
        """The losses in a window, as the "lost" key of ltt stats' JSON counts them (doc/cli.md "Losses in
        a view's window"): the loss records (ltt sql's lost table) whose window (from_ns, ts_ns] meets
        [start_ns, end_ns] (None: open; a record without from_ns may have dropped events since the
        start), summed: {"events", "by_cause": {cause: n}, "overwritten", "records", "kernel_events"}.
        A query over calls, regions or spans knows its intervals cut by a loss from their cut column."""
        q = "SELECT cause, sum(count), count(*), sum(CASE WHEN tracefile LIKE 'kernel/%%' THEN count ELSE 0 END) " \
            "FROM lost WHERE 1%s%s GROUP BY cause"
        lo = " AND ts_ns >= %d" % int(start_ns) if start_ns is not None else ""
        hi = " AND coalesce(from_ns, 0) <= %d" % int(end_ns) if end_ns is not None else ""
        out = {"events": 0, "by_cause": {}, "overwritten": 0, "records": 0, "kernel_events": 0}
        for cause, n, records, kernel in self.sql_rows(q % (lo, hi))[1]:
            out["events"] += n
            out["records"] += records
            out["kernel_events"] += kernel
            if cause == "blocks_lost":
                out["overwritten"] += n
            else:
                out["by_cause"][cause] = n
        return out

    def sql_rows(self, query):
        """sql() as (column names, list of tuples), whether or not pandas is installed."""
        return self._live()._sql(query)

    def __repr__(self):
        return "<ltt.Trace %s>" % " ".join(t["path"] for t in self._info)
