build/obj/src/cli/outbuf.o: src/cli/outbuf.c src/cli/outbuf.h
src/cli/outbuf.h:
