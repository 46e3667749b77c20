# The ltt rows of `make bench`; sourced by bench/run.sh. (placeholder: filled in as ltt lands)
LTT_NA="not yet"
run_ltt_off() { RUN_ERR=$LTT_NA; }
run_ltt() { RUN_ERR=$LTT_NA; }
run_ltt_snaptime() { RUN_ERR=$LTT_NA; }
ltt_read_trace() { :; }
run_ltt_read() { RUN_ERR=$LTT_NA; }
run_region() { RUN_ERR=$LTT_NA; }
