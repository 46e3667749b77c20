# SPDX-License-Identifier: MIT
# python/: the Python package `ltt` (doc/python.md), a room above the toolkit. A CPython extension,
# ltt._ltt, over libltt-reader and libltt-toolkit (it sees their public headers only), built once on
# CPython's limited API of 3.8 (python/pyltt.h: the stable ABI, `abi3`) with the headers of Debian's
# python3 (PYTHON), no NumPy at build time, next to the package's pure Python part in
# $(BUILD)/python/ltt/ (PYTHONPATH=$(BUILD)/python finds it): every CPython from 3.8 on imports it. `make install` puts the package in
# PREFIX/lib/python3/dist-packages, on Debian's sys.path for PREFIX=/usr; for PREFIX=/usr/local in
# /usr/local/lib/python3.X/dist-packages, which Debian's python3 searches (its
# /usr/local/lib/python3/dist-packages it does not).
PYTHON      ?= /usr/bin/python3
PY_SRCS     := $(wildcard python/*.c)
PY_PKG      := $(BUILD)/python/ltt
PY_EXT      := $(PY_PKG)/_ltt.abi3.so
PY_FILES    := $(patsubst python/ltt/%,$(PY_PKG)/%,$(wildcard python/ltt/*.py))
INC_python  := $(INC_toolkit) -isystem $(PY_INCLUDE)
ROOMS       += python
$(O)/python/%.o: private ROOM_INC = $(INC_python)
$(call obj,$(PY_SRCS)): CPPFLAGS += $(SQLITE_CFLAGS)

# The static libraries go in whole where needed, their symbols kept hidden: the module exports
# PyInit__ltt only.
# An older build's _ltt.cpython-3X-*.so would be imported before _ltt.abi3.so: removed.
$(PY_EXT): $(call obj,$(PY_SRCS)) $(TOOL_LIBS)
	@mkdir -p $(@D)
	rm -f $(@D)/_ltt.cpython-*.so
	$(CC) -shared $(LDFLAGS) -Wl,--exclude-libs,ALL -o $@ $(call obj,$(PY_SRCS)) $(TOOL_LIBS) \
	    $(READER_LIBS) $(DW_LIBS) $(SQLITE_LIBS) -lpthread
$(PY_PKG)/%.py: python/ltt/%.py
	@mkdir -p $(@D)
	cp $< $@

all: $(PY_EXT) $(PY_FILES)
check: $(PY_EXT) $(PY_FILES)

# What python/ltt_build.py (the package's PEP 517 backend: pip install ./python) builds; `make wheel`
# packs it as $(BUILD)/dist/ltt-VERSION-cp38-abi3-PLATFORM.whl, installable by pip into any CPython 3.8+
# of a machine with the shared libraries it links (ldd; Debian 12: libdw1 libsqlite3-0 libarchive13
# libxml2 libssl3), no compiler needed.
.PHONY: python-module wheel
python-module: $(PY_EXT) $(PY_FILES)
wheel: $(PY_EXT) $(PY_FILES)
	LTT_PREBUILT=1 LTT_BUILD=$(abspath $(BUILD)) $(PYTHON) python/ltt_build.py wheel $(BUILD)/dist

PY_SITE = $(if $(filter /usr/local,$(PREFIX)),$(PREFIX)/lib/python$(PY_VERSION)/dist-packages,$(PREFIX)/lib/python3/dist-packages)
.PHONY: install-python
install: install-python
install-python: $(PY_EXT) $(PY_FILES)
	install -d $(DESTDIR)$(PY_SITE)/ltt
	install -m 644 $(PY_FILES) $(DESTDIR)$(PY_SITE)/ltt/
	rm -f $(DESTDIR)$(PY_SITE)/ltt/_ltt.cpython-*.so
	install -m 755 $(PY_EXT) $(DESTDIR)$(PY_SITE)/ltt/
