#!/bin/sh
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
