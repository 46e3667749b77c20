# SPDX-License-Identifier: MIT
# recorder: the core facility's XML is compiled into libltt (libltt registers it itself and must not
# depend on libxml2): $(BUILD)/gen/ltt-core-xml.h holds the <facility> element as a C string.
$(BUILD)/gen/ltt-core-xml.h: eventdefs/core.xml recorder/module.mk
	@mkdir -p $(@D)
	sed -n '/<facility/,/<\/facility>/p' $< | sed -e 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' > $@.tmp
	mv $@.tmp $@
$(O)/recorder/core.o: $(BUILD)/gen/ltt-core-xml.h

# tests/fuzz/fuzz_env.c drives the LTT_* setting parsers (common/settings.c, read by recorder/env_parse.c):
$(BUILD)/fuzz/fuzz_env: $(call fuzz_obj,recorder/env_parse.c)

# Function tracing's -pg hooks (recorder/func_x86_64.S): assembly, x86-64 only (doc/recorder.md
# "Function tracing"); elsewhere the file assembles to nothing but its note.
RECORDER_ASM := $(wildcard recorder/*.S)
$(BUILD)/lib/libltt.a $(BUILD)/lib/libltt.so: $(patsubst %.S,$(O)/%.o,$(RECORDER_ASM))
$(O)/recorder/%.o: recorder/%.S $(FLAGS_STAMP) | $(BUILD)/config.mk
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<
$(O)/recorder/func.o $(O)/recorder/func_hooks.o $(O)/recorder/func_open.o: $(GEN_STAMP)

# The kernel facility (eventdefs/kernel.xml), registered by libltt when it records kernel events.
$(BUILD)/gen/ltt-kernel-xml.h: eventdefs/kernel.xml recorder/module.mk
	@mkdir -p $(@D)
	sed -n '/<facility/,/<\/facility>/p' $< | sed -e 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' > $@.tmp
	mv $@.tmp $@
$(O)/recorder/kernel.o: $(BUILD)/gen/ltt-kernel-xml.h

# The fd facility (eventdefs/fd.xml): the names of the program's fds, beside kernel system calls.
$(BUILD)/gen/ltt-fd-xml.h: eventdefs/fd.xml recorder/module.mk
	@mkdir -p $(@D)
	sed -n '/<facility/,/<\/facility>/p' $< | sed -e 's/\\/\\\\/g; s/"/\\"/g; s/^/"/; s/$$/\\n"/' > $@.tmp
	mv $@.tmp $@
$(O)/recorder/fd_names.o: $(BUILD)/gen/ltt-fd-xml.h
