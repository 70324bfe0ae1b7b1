# SPDX-License-Identifier: LGPL-2.1-only
# sonde: libsonde (static + shared) and the sonde command.
#
#   make               build into $(BUILD)/
#   make check         deps, build, every test, then again under ASan+UBSan
#   make install PREFIX=/usr/local
#   make SAN=1 BUILD=build-san   sanitizer build (used by check)

VERSION_MAJOR := 0
VERSION_MINOR := 1
VERSION_PATCH := 0
VERSION := $(VERSION_MAJOR).$(VERSION_MINOR).$(VERSION_PATCH)

BUILD ?= build
PREFIX ?= /usr/local
CC ?= cc
ifeq ($(origin CC),default)
CC := gcc
endif

WARN := -Wall -Wextra -Werror -Wno-missing-field-initializers \
	-Wformat=2 -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifeq ($(findstring clang,$(shell $(CC) --version 2>/dev/null | head -1)),)
WARN += -Wformat-signedness
endif
OPT ?= -O2 -g
# src/lib is one folder per layer, lowest first; tests/check_layers.sh
# fails the build's check when a file includes a header of a higher layer.
LAYERS := core event ring count stat record sym unwind perfdata profile export
LIB_INC := -Isrc/lib $(addprefix -Isrc/lib/,$(LAYERS))
CFLAGS_BASE := -std=c11 -D_GNU_SOURCE -fPIC -fvisibility=hidden \
	-fno-omit-frame-pointer $(WARN) $(OPT) -Iinclude $(LIB_INC) \
	-DSONDE_VERSION=\"$(VERSION)\"
ifeq ($(SAN),1)
CFLAGS_BASE += -fsanitize=address,undefined -fno-sanitize-recover=all
LDFLAGS += -fsanitize=address,undefined
endif
ALL_CFLAGS = $(CFLAGS_BASE) $(CFLAGS)
LIBS := -ldw -lelf -lz -lzstd -lm -lpthread

LIB_SRCS := $(sort $(wildcard src/lib/*.c src/lib/*/*.c))
CLI_SRCS := $(sort $(wildcard src/cli/*.c))
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
EXAMPLE_SRCS := $(sort $(wildcard examples/*.c))
HELPER_SRCS := $(sort $(wildcard tests/helpers/*.c))

LIB_OBJS := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o)
# The HTML profile's page, CSS and script, kept as ordinary files and
# turned into C arrays here so the library writes one self-contained page.
HTML_ASSETS := page:src/lib/export/html/page.html css:src/lib/export/html/flame.css \
	js:src/lib/export/html/flame.js tljs:src/lib/export/html/timeline.js
HTML_ASSETS_C := $(BUILD)/gen/html_assets.c
LIB_OBJS += $(BUILD)/obj/gen/html_assets.o
CLI_OBJS := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
EXAMPLE_BINS := $(EXAMPLE_SRCS:examples/%.c=$(BUILD)/examples/%)
HELPER_BINS := $(HELPER_SRCS:tests/helpers/%.c=$(BUILD)/helpers/%)

STATIC_LIB := $(BUILD)/libsonde.a
SONAME := libsonde.so.$(VERSION_MAJOR)
SHARED_LIB := $(BUILD)/libsonde.so.$(VERSION)
SONDE := $(BUILD)/sonde
MAP := src/lib/libsonde.map

.PHONY: all lib cli shared-cli tests examples helpers check check-fast \
	install clean fuzz deps bench demo
all: lib cli

lib: $(STATIC_LIB) $(SHARED_LIB)
cli: $(SONDE)
tests: $(UNIT_BINS)
examples: $(EXAMPLE_BINS)
helpers: $(HELPER_BINS)

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The command sees the library as any user does: public headers only, so
# a private include fails to compile, whatever path it takes.
$(BUILD)/obj/src/cli/%.o: src/cli/%.c
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(LIB_INC),$(ALL_CFLAGS)) -MMD -MP -c $< -o $@

$(HTML_ASSETS_C): $(foreach a,$(HTML_ASSETS),$(word 2,$(subst :, ,$(a)))) Makefile
	@mkdir -p $(dir $@)
	@{ echo '#include <stddef.h>'; echo '#include "export_priv.h"'; \
	  for a in $(HTML_ASSETS); do n=$${a%%:*}; f=$${a#*:}; \
	    echo "const unsigned char export_asset_$$n[] = {"; xxd -i < $$f; echo ', 0 };'; \
	    echo "const size_t export_asset_$${n}_len = sizeof(export_asset_$$n) - 1;"; \
	  done; } > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/gen/html_assets.o: $(HTML_ASSETS_C)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Isrc/lib/export -c $< -o $@

$(STATIC_LIB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# The newest node of the version map must name this release.
$(SHARED_LIB): $(LIB_OBJS) $(MAP)
	@grep -q "LIBSONDE_$(VERSION) " $(MAP) || \
		{ echo "$(MAP) has no LIBSONDE_$(VERSION) node: versions are out of sync"; exit 1; }
	$(CC) -shared -Wl,-soname,$(SONAME) -Wl,--version-script=$(MAP) \
		-Wl,--no-undefined $(LDFLAGS) -o $@ $(LIB_OBJS) $(LIBS)
	ln -sf libsonde.so.$(VERSION) $(BUILD)/$(SONAME)
	ln -sf $(SONAME) $(BUILD)/libsonde.so

$(SONDE): $(CLI_OBJS) $(STATIC_LIB)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) $(STATIC_LIB) $(LIBS)

# The same command linked to libsonde.so instead: it can use exported
# symbols only (make check runs the CLI tests on it).
SHARED_SONDE := $(BUILD)/shared/sonde
shared-cli: $(SHARED_SONDE)
$(SHARED_SONDE): $(CLI_OBJS) $(SHARED_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $(CLI_OBJS) -L$(BUILD) \
		-Wl,-rpath,'$$ORIGIN/..:$$ORIGIN' -lsonde -lm -lpthread

# The command's parts without main(), for unit tests of its printers and
# JSON writer (tests link objects, never include a .c of src/cli).
CLI_LIB := $(BUILD)/sonde-cli.a
$(CLI_LIB): $(filter-out $(BUILD)/obj/src/cli/main.o,$(CLI_OBJS))
	rm -f $@ && ar rcs $@ $^

$(BUILD)/tests/%: tests/unit/%.c $(STATIC_LIB) $(CLI_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Wno-unused-parameter -Itests/unit -Isrc/cli -MMD -MP $< \
		$(LDFLAGS) -o $@ $(CLI_LIB) $(STATIC_LIB) -lcmocka $(LIBS)

# Unit tests on the public API (tests/unit_public.sh picks them by their
# includes: "sonde/...", tests/unit helpers and src/cli's headers) are
# built a second time against libsonde.so, without src/lib on the include
# path: a symbol the version map misses fails them. The command's objects
# link there too, as in shared-cli. SONDE_TEST_SHARED tells a slow test
# that this build is about linking, to run its cases once. The check fails
# the build when a shared test reached a header of src/lib or a
# static-only test does not say why ("Static-only: <reason>").
UNIT_SHARED_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests-shared/%,\
	$(shell tests/unit_public.sh))
tests: $(BUILD)/tests-shared/.checked
$(BUILD)/tests-shared/.checked: $(UNIT_SHARED_BINS) $(UNIT_SRCS) tests/unit_public.sh
	@tests/unit_public.sh --check $(BUILD)
	@touch $@
$(BUILD)/tests-shared/%: tests/unit/%.c $(SHARED_LIB) $(CLI_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(LIB_INC),$(ALL_CFLAGS)) -Wno-unused-parameter \
		-DSONDE_TEST_SHARED -Itests/unit -Isrc/cli -MMD -MP $< $(LDFLAGS) -o $@ \
		$(CLI_LIB) -L$(BUILD) -Wl,-rpath,'$$ORIGIN/..' -lsonde -lcmocka -lz -lzstd -lm -lpthread

$(BUILD)/examples/%: examples/%.c $(SHARED_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(filter-out $(LIB_INC),$(ALL_CFLAGS)) $< $(LDFLAGS) -o $@ \
		-L$(BUILD) -Wl,-rpath,'$$ORIGIN/..' -lsonde

# Workloads for tests and the demo: frame pointers kept, no inlining games.
HELPER_HDRS := $(wildcard tests/helpers/*.h)
$(BUILD)/helpers/%: tests/helpers/%.c $(HELPER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer \
		-fno-optimize-sibling-calls $(if $(filter 1,$(SAN)),,) $< -o $@ -lpthread -lm

# Symbolizer/unwinder test variants: a non-PIE build of symtest and an
# unwind subject without frame pointers (only DWARF CFI can unwind it).
helpers: $(BUILD)/helpers/symtest_nopie
$(BUILD)/helpers/symtest_nopie: tests/helpers/symtest.c $(HELPER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fno-pie -no-pie -fno-omit-frame-pointer $< -o $@

$(BUILD)/helpers/unwind_nofp: tests/helpers/unwind_nofp.c $(HELPER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -fasynchronous-unwind-tables $< -o $@

helpers: $(BUILD)/helpers/unwind_nofp_nopie
$(BUILD)/helpers/unwind_nofp_nopie: tests/helpers/unwind_nofp.c $(HELPER_HDRS)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fomit-frame-pointer -fasynchronous-unwind-tables \
		-fno-pie -no-pie $< -o $@

# PLT workload: the hot calls go through the PLT of a small library built
# without crt files, so that no zero-sized _init overlaps its .plt (perf
# 6.1 resolves such overlaps by the shape of its symbol tree). The _ibt
# variant has IBT stubs in .plt.sec (-z ibtplt forces them).
helpers: $(BUILD)/helpers/plt_workload $(BUILD)/helpers/plt_workload_ibt
$(BUILD)/helpers/libplthot.so: tests/helpers/lib/plthot.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fPIC -shared -nostartfiles -fno-builtin \
		-fno-omit-frame-pointer $< -o $@
$(BUILD)/helpers/libplthot_ibt.so: tests/helpers/lib/plthot.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -fPIC -shared -nostartfiles -fno-builtin \
		-fcf-protection -Wl,-z,ibtplt -Wl,-z,now \
		-fno-omit-frame-pointer $< -o $@
$(BUILD)/helpers/plt_workload: tests/helpers/plt_workload.c \
		$(BUILD)/helpers/libplthot.so
	$(CC) -O2 -g -fno-omit-frame-pointer $< -o $@ -L$(BUILD)/helpers \
		-lplthot -Wl,-rpath,'$$ORIGIN'
$(BUILD)/helpers/plt_workload_ibt: tests/helpers/plt_workload.c \
		$(BUILD)/helpers/libplthot_ibt.so
	$(CC) -O2 -g -fno-omit-frame-pointer -fcf-protection -Wl,-z,ibtplt \
		$< -o $@ -L$(BUILD)/helpers -lplthot_ibt -Wl,-rpath,'$$ORIGIN'

# The report benchmark's perf.data generator, also used by tests that need
# a big file (the progress bar).
helpers: $(BUILD)/helpers/gen_perfdata
$(BUILD)/helpers/gen_perfdata: bench/gen_perfdata.c tests/unit/pdgen.h
	@mkdir -p $(dir $@)
	$(CC) -O2 -std=c11 -D_GNU_SOURCE $< -o $@ -lelf

deps:
	@scripts/deps

# The quick-start job: count, sample and report the bundled demo workload.
demo: deps
	@$(MAKE) -s all helpers
	@scripts/demo.sh

# Whole suite: normal build, then ASan+UBSan build, then fuzz smoke runs.
check: deps
	@tests/run_all.sh

# One pass in $(BUILD) without the sanitizer round (for quick iteration).
check-fast: all tests examples helpers
	@tests/check_layers.sh $(BUILD)
	@tests/check_cli_includes.sh
	@tests/check_abi.sh $(BUILD)
	@tests/run_suite.sh $(BUILD)

# Longer fuzzing than check's smoke run (10 s per target): FUZZ_SECONDS
# per target (default 300); FUZZ_MERGE=1 folds new coverage into the
# checked-in corpora under tests/fuzz/corpus/; FUZZ_TARGETS picks some.
FUZZ_SECONDS ?= 300
fuzz:
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(BUILD)-fuzz

bench: all helpers
	@bench/run_all.sh $(BUILD)

install: all
	install -d $(DESTDIR)$(PREFIX)/include/sonde $(DESTDIR)$(PREFIX)/lib \
		$(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/pkgconfig \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3
	install -m 644 include/sonde/*.h $(DESTDIR)$(PREFIX)/include/sonde/
	install -m 644 $(STATIC_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(SHARED_LIB) $(DESTDIR)$(PREFIX)/lib/
	ln -sf libsonde.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(PREFIX)/lib/libsonde.so
	install -m 755 $(SONDE) $(DESTDIR)$(PREFIX)/bin/
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@VERSION@|$(VERSION)|' \
		sonde.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/sonde.pc
	for m in docs/man/*.1; do [ -e "$$m" ] && install -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man1/; done; true
	for m in docs/man/*.3; do [ -e "$$m" ] && install -m 644 $$m $(DESTDIR)$(PREFIX)/share/man/man3/; done; true

clean:
	rm -rf build build-* 

-include $(shell find $(BUILD)/obj $(BUILD)/tests $(BUILD)/tests-shared -name '*.d' 2>/dev/null)
