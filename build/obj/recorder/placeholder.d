build/obj/recorder/placeholder.o: recorder/placeholder.c \
 include/ltt/ltt.h include/ltt/static/event.h
include/ltt/ltt.h:
include/ltt/static/event.h:
