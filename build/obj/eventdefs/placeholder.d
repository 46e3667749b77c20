build/obj/eventdefs/placeholder.o: eventdefs/placeholder.c
