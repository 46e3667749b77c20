build/obj/tests/unit/test_build.o: tests/unit/test_build.c \
 include/ltt/ltt.h include/ltt/static/event.h
include/ltt/ltt.h:
include/ltt/static/event.h:
