build/obj/reader/placeholder.o: reader/placeholder.c
