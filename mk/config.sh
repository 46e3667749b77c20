#!/bin/sh
# SPDX-License-Identifier: MIT
# Prints the compiler and linker flags of the dependencies, as make variables.
set -e
pc() { pkg-config "$@" 2>/dev/null || { echo "config: pkg-config cannot find $2" >&2; exit 1; }; }
echo "XML_CFLAGS := $(pc --cflags libxml-2.0)"
echo "XML_LIBS := $(pc --libs libxml-2.0)"
echo "URCU_CFLAGS := $(pc --cflags liburcu-bp)"
echo "URCU_LIBS := $(pc --libs liburcu-bp)"
echo "CHECK_CFLAGS := $(pc --cflags check)"
echo "CHECK_LIBS := $(pc --libs check)"
echo "ARCHIVE_CFLAGS := $(pc --cflags libarchive)"
echo "ARCHIVE_LIBS := $(pc --libs libarchive)"
echo "SQLITE_CFLAGS := $(pc --cflags sqlite3)"
echo "SQLITE_LIBS := $(pc --libs sqlite3)"
echo "CRYPTO_CFLAGS := $(pc --cflags libcrypto)"
echo "CRYPTO_LIBS := $(pc --libs libcrypto)"
echo "UNWIND_CFLAGS := $(pc --cflags libunwind)"
echo "UNWIND_LIBS := $(pc --libs libunwind)"
echo "DW_CFLAGS := $(pc --cflags libdw)"
echo "DW_LIBS := $(pc --libs libdw)"
# The Python module (python/module.mk): the headers of Debian's python3 (the module is built on the
# limited API of 3.8: any CPython 3.8+ headers do).
PY=${PYTHON:-/usr/bin/python3}
echo "PY_INCLUDE := $($PY -c 'import sysconfig; print(sysconfig.get_paths()["include"])')"
echo "PY_EXT_SUFFIX := $($PY -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')"
echo "PY_VERSION := $($PY -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
