XML_CFLAGS := -I/usr/include/libxml2 
XML_LIBS := -lxml2 
URCU_CFLAGS := -I/usr/include/x86_64-linux-gnu 
URCU_LIBS := -lurcu-common -lurcu-bp 
CHECK_CFLAGS := -pthread 
CHECK_LIBS := -lcheck_pic -lrt -lm -lsubunit 
ARCHIVE_CFLAGS := 
ARCHIVE_LIBS := -larchive 
