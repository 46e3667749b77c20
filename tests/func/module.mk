# SPDX-License-Identifier: MIT
# tests/func: the known call tree of function tracing (tests/e2e/functions.sh), built three ways:
# -finstrument-functions linked with libltt, and -pg with and without -mfentry, not linked with it
# (ltt record --functions preloads libltt.so). -O1 and noinline keep the tree as written.
# Under make asan the programs carry the sanitizers too: the sanitized libltt (linked, or preloaded
# into the -pg builds) needs their runtime loaded first.
FUNC_TREE_CFLAGS := -std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread \
                    $(if $(SANITIZE),-fsanitize=$(SANITIZE))
$(BUILD)/tests/func/func_tree_cyg: tests/func/func_tree.c $(STATIC_LIBS)
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -finstrument-functions -o $@ $< $(BUILD)/lib/libltt.a $(RECORDER_LIBS)
$(BUILD)/tests/func/func_tree_pg: tests/func/func_tree.c
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -pg -o $@ $<
$(BUILD)/tests/func/func_tree_fentry: tests/func/func_tree.c
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -pg -mfentry -o $@ $<
FUNC_TREE_BINS := $(BUILD)/tests/func/func_tree_cyg $(BUILD)/tests/func/func_tree_pg $(BUILD)/tests/func/func_tree_fentry
check: $(FUNC_TREE_BINS)
# tests/e2e/trust_lossy.sh: a fast program that loses events in tiny rings and times its own calls.
$(BUILD)/tests/func/func_lossy_cyg: tests/func/func_lossy.c $(STATIC_LIBS)
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -finstrument-functions -o $@ $< $(BUILD)/lib/libltt.a $(RECORDER_LIBS)
check: $(BUILD)/tests/func/func_lossy_cyg
