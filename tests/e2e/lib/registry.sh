# SPDX-License-Identifier: MIT
# Sourced by the end-to-end scripts whose flight-mode processes die without stopping (kill -9, a
# program's own SIGKILL): the `ltt snapshot` registry (doc/flight-recorder.md "Taking a snapshot") is
# /tmp/ltt-UID/flight-PID, one file per process recording a flight trace, its first line the trace
# directory. A process killed leaves its file; a later process given the same pid (pid_max is 32768
# here) would meet it, so a test removes the files of the processes it killed.
#   . "$SRCDIR/tests/e2e/lib/registry.sh"
# ($XDG_RUNTIME_DIR/ltt first when that variable is set, common/snapshot_registry.h)
REG_DIR="/tmp/ltt-$(id -u)"
REG_XDG="${XDG_RUNTIME_DIR:+$XDG_RUNTIME_DIR/ltt}"
# reg_of TRACE: the registry files naming trace directory TRACE (nothing printed when none)
reg_of() { grep -lx -F -- "$1" ${REG_XDG:+"$REG_XDG"/flight-*} "$REG_DIR"/flight-* 2>/dev/null; }
# reg_forget TRACE...: removes the registry files naming these trace directories
reg_forget() { for t in "$@"; do for f in $(reg_of "$t"); do rm -f "$f"; done; done; }
# reg_forget_pid PID...: removes the registry files of these processes
reg_forget_pid() { for p in "$@"; do rm -f "$REG_DIR/flight-$p" ${REG_XDG:+"$REG_XDG/flight-$p"}; done; }
