build/obj/tools/cmd_version.o: tools/cmd_version.c tools/cmd.h \
 build/gen/ltt-cmds.h
tools/cmd.h:
build/gen/ltt-cmds.h:
