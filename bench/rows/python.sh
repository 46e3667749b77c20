# SPDX-License-Identifier: MIT
# Rows of the Python module (issue 27; sourced by bench/run.sh, uses its measure). They read the int3
# trace of the reading rows ($LTT_READ; with BENCH_ONLY selecting only these rows it is recorded here
# the same way) with Debian's python3 and the module built in $BUILD/python (the abi3 build every
# CPython 3.8+ imports; NumPy imported before the clock, as in a notebook), timed inside the
# interpreter (bench/python_read.py; the cpu column: the same rate by the process's CPU time):
#   py-bt2      the peer: babeltrace2's Python bindings (python3-bt2) on ltt's CTF export of the same
#               trace, the first PY_BT2_EVENTS (default 200000) int3 events, their fields read
#   py-numpy    Trace.to_numpy("bench.int3"): M events/s, ratio to py-bt2 (goal >= 20 M/s, >= 200x)
#   py-pandas   Trace.to_pandas("bench.int3") (goal as py-numpy)
#   py-iter     for ev in trace, ev.fields read (goal >= 1 M/s)
PY="Python: $EVENTS int3 events into Python (M events/s, higher is better)"
PY_TRACE= PY_NA= PY_BT2_NA= PY_CTF=
PYTHON=${PYTHON:-/usr/bin/python3}
PY_BT2_EVENTS=${PY_BT2_EVENTS:-200000}

py_trace() {
	if [ -n "$LTT_READ" ] && [ -z "$LTT_READ_NA" ]; then
		PY_TRACE=$LTT_READ
	elif [ -x "$LTT_PROG" ]; then
		PY_TRACE=$W/py-read
		rm -rf "$PY_TRACE"
		LTT_TRACE=$PY_TRACE LTT_MODE=discard LTT_BLOCK_SIZE=$BLOCK LTT_BLOCKS=${READ_BLOCKS:-512} \
			"$LTT_PROG" int3 1 "$EVENTS" > "$T/out" 2> "$T/err" ||
			{ PY_NA="bench_ltt failed: $(head -n 1 "$T/err")"; return; }
	else
		PY_NA="bench_ltt not built (see $B/build.log)"
		return
	fi
	PYTHONPATH=$BUILD/python "$PYTHON" -c 'import ltt' 2> "$T/err" ||
		{ PY_NA="the module does not import: $(tail -n 1 "$T/err")"; return; }
	PY_CTF=$W/py-ctf
	rm -rf "$PY_CTF"
	"$LTT" export --format=ctf -o "$PY_CTF" "$PY_TRACE" > /dev/null 2> "$T/err" ||
		{ PY_BT2_NA="ltt export --format=ctf failed: $(head -n 1 "$T/err")"; return; }
	"$PYTHON" -c 'import bt2' 2> /dev/null || PY_BT2_NA="python3-bt2 not installed (make deps)"
}

# run_py MODE ARGS...: the figure printed by bench/python_read.py, in M events/s
run_py() {
	case $1 in bt2) [ -z "$PY_BT2_NA" ] || { RUN_ERR=$PY_BT2_NA; return; } ;; esac
	[ -z "$PY_NA" ] || { RUN_ERR=$PY_NA; return; }
	if ! PYTHONPATH=$BUILD/python "$PYTHON" "$SRCDIR/bench/python_read.py" "$@" > "$T/out" 2> "$T/err"; then
		RUN_ERR="python_read.py $1 failed: $(tail -n 1 "$T/err")"
		return
	fi
	RUN_VAL=$(sed -n 's/^events=\([0-9]*\) seconds=\([0-9.]*\) .*/\1 \2/p' "$T/out" |
		awk '{ if ($2 > 0) printf "%.3f", $1 / $2 / 1e6 }')
	RUN_CPU=$(sed -n 's/^events=\([0-9]*\) .* cpu_seconds=\([0-9.]*\)$/\1 \2/p' "$T/out" |
		awk '{ if ($2 > 0) printf "%.3f", $1 / $2 / 1e6 }')
	RUN_NOTE="$(sed -n 's/^events=\([0-9]*\) .*/\1/p' "$T/out") events"
}

if want py-; then
	py_trace
	measure py-bt2 "$PY" "bt2 (Python bindings), CTF export, fields" "Mev/s" - run_py bt2 "$PY_CTF" "$PY_BT2_EVENTS"
	measure py-numpy "$PY" "ltt: trace.to_numpy(\"bench.int3\")" "Mev/s" py-bt2 run_py numpy "$PY_TRACE"
	measure py-pandas "$PY" "ltt: trace.to_pandas(\"bench.int3\")" "Mev/s" py-bt2 run_py pandas "$PY_TRACE"
	measure py-iter "$PY" "ltt: for ev in trace (ev.fields)" "Mev/s" py-bt2 run_py iter "$PY_TRACE"
	rm -rf "$PY_CTF"
	[ "$PY_TRACE" = "$W/py-read" ] && rm -rf "$PY_TRACE"
fi
