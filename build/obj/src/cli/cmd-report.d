build/obj/src/cli/cmd-report.o: src/cli/cmd-report.c src/cli/builtin.h
src/cli/builtin.h:
