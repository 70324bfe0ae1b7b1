build-clang/obj/src/cli/options.o: src/cli/options.c src/cli/options.h

src/cli/options.h:
