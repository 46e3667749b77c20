build/obj/tools/main.o: tools/main.c tools/cmd.h build/gen/ltt-cmds.h
tools/cmd.h:
build/gen/ltt-cmds.h:
