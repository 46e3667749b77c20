# SPDX-License-Identifier: MIT
# tests/func: programs for function tracing, each built three ways: -finstrument-functions linked with
# libltt, and -pg with and without -mfentry, not linked with it (ltt record --functions preloads
# libltt.so). -O1 and noinline keep the calls as written. func_tree.c: the known call tree
# (tests/e2e/functions.sh); func_jmp.c: longjmp, siglongjmp out of handlers, vfork
# (tests/e2e/functions_jmp.sh); func_args.c: known arguments, return values and library calls
# (tests/e2e/functions_args.sh, functions_plt.sh).
# Under make asan the programs carry the sanitizers too: the sanitized libltt (linked, or preloaded
# into the -pg builds) needs their runtime loaded first.
FUNC_TREE_CFLAGS := -std=gnu11 -O1 -g -fno-omit-frame-pointer -fno-optimize-sibling-calls -pthread \
                    $(if $(SANITIZE),-fsanitize=$(SANITIZE))
$(BUILD)/tests/func/%_cyg: tests/func/%.c $(STATIC_LIBS)
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -finstrument-functions -o $@ $< $(BUILD)/lib/libltt.a $(RECORDER_LIBS)
$(BUILD)/tests/func/%_pg: tests/func/%.c
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -pg -o $@ $<
$(BUILD)/tests/func/%_fentry: tests/func/%.c
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -pg -mfentry -o $@ $<
# func_args_cygonly: -finstrument-functions not linked with libltt (ltt record refuses -A/-R on it)
$(BUILD)/tests/func/%_cygonly: tests/func/%.c
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -finstrument-functions -o $@ $<
# func_many_cyg: many fast calls (tests/e2e/blocking.sh, io_rotate_size.sh, sql_pushdown.sh, make bench)
# tests/func/func_dl_lib.c: a -pg library func_jmp's "dl" mode dlopens (functions_jmp.sh)
$(BUILD)/tests/func/libfuncdl.so: tests/func/func_dl_lib.c
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -pg -shared -fPIC -o $@ $<
FUNC_TREE_BINS := $(BUILD)/tests/func/func_many_cyg $(foreach p,func_tree func_jmp func_args,$(foreach b,cyg pg fentry,$(BUILD)/tests/func/$(p)_$(b))) \
                  $(BUILD)/tests/func/libfuncdl.so $(BUILD)/tests/func/func_args_cygonly
check: $(FUNC_TREE_BINS)
# tests/e2e/trust_lossy.sh: a fast program that loses events in tiny rings and times its own calls.
$(BUILD)/tests/func/func_lossy_cyg: tests/func/func_lossy.c $(STATIC_LIBS)
	@mkdir -p $(@D)
	$(CC) $(FUNC_TREE_CFLAGS) -finstrument-functions -o $@ $< $(BUILD)/lib/libltt.a $(RECORDER_LIBS)
check: $(BUILD)/tests/func/func_lossy_cyg
