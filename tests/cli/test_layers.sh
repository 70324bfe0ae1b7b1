#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-only
# The checks that keep the tree's layers (tests/check_layers.sh) and the
# command's includes (tests/check_cli_includes.sh) can fail: each runs on a
# copy of the tree, first as it is (pass), then with one violation planted
# (fail, naming the file).
source "$(dirname "$0")/lib.sh"
ROOT=$(cd "$(dirname "$0")/../.." && pwd)

# fresh: a copy of what the checks read, in $TMP/tree.
fresh() {
	rm -rf "$TMP/tree"
	mkdir -p "$TMP/tree/tests" "$TMP/tree/src" "$TMP/tree/include"
	cp -r "$ROOT/src/lib" "$ROOT/src/cli" "$TMP/tree/src/"
	cp -r "$ROOT/include/sonde" "$TMP/tree/include/"
	cp "$ROOT/Makefile" "$ROOT/tests/check_layers.sh" "$ROOT/tests/check_cli_includes.sh" \
		"$TMP/tree/tests/" 2>/dev/null
	mv "$TMP/tree/tests/Makefile" "$TMP/tree/"
}

# check NAME SCRIPT WANT_RC [PATTERN]: runs the copy's check SCRIPT (with
# no objects unless $TMP/tree/build has some).
check() {
	local name=$1 script=$2 want=$3 pat=${4:-} rc
	(cd "$TMP/tree" && bash "tests/$script" build) >"$TMP/out" 2>&1
	rc=$?
	if [ "$want" = 0 ] && [ $rc = 0 ]; then
		pass "$name"
	elif [ "$want" != 0 ] && [ $rc != 0 ] && grep -qE -- "$pat" "$TMP/out"; then
		pass "$name"
	else
		fail "$name: exit $rc, wanted $want${pat:+ and /$pat/}: $(head -c 600 "$TMP/out")"
	fi
}

fresh
check "layers: the tree as it is passes" check_layers.sh 0
check "cli includes: the tree as it is passes" check_cli_includes.sh 0

# A core file that includes the profile layer's header: upward.
priv=$(cd "$ROOT/src/lib/profile" && ls *.h | head -1)
echo "#include \"$priv\"" >>"$TMP/tree/src/lib/core/log.c"
check "layers: a core file including $priv (profile) fails" check_layers.sh 1 \
	"src/lib/core/log.c \(core\) includes $priv \(profile\)"

# A public header of the core layer that includes one of the profile layer.
fresh
echo '#include "sonde/profile.h"' >>"$TMP/tree/include/sonde/sys.h"
check "layers: <sonde/sys.h> including <sonde/profile.h> fails" check_layers.sh 1 \
	"include/sonde/sys.h \(core\) includes sonde/profile.h \(profile\)"

# A file outside every layer.
fresh
echo 'int x;' >"$TMP/tree/src/lib/stray.c"
check "layers: a file at the top of src/lib fails" check_layers.sh 1 "outside every layer"

# A private header named like a public one.
fresh
echo '/* shadow */' >"$TMP/tree/src/lib/ring/ring.h"
check "layers: a private header named like a public one fails" check_layers.sh 1 \
	"src/lib/ring/ring.h has the name of public header sonde/ring.h"

# A second private header in a layer.
fresh
echo '/* more */' >"$TMP/tree/src/lib/count/count_extra.h"
check "layers: a second private header in a layer fails" check_layers.sh 1 \
	"src/lib/count/count_extra.h: a layer's one private header is count_priv.h"

# A file name against the convention.
fresh
echo 'int y;' >"$TMP/tree/src/lib/ring/ring-extra.c"
check "layers: a C file name with a hyphen fails" check_layers.sh 1 \
	"src/lib/ring/ring-extra.c: a C file name is lowercase words"

# A script's name too (man pages alone keep man's hyphens).
fresh
mkdir -p "$TMP/tree/bench"
echo 'true' >"$TMP/tree/bench/load-test.sh"
check "layers: a script name with a hyphen fails" check_layers.sh 1 \
	"bench/load-test.sh: a file name is lowercase words"

# The tests' stored output too: a golden file, and a golden folder.
fresh
mkdir -p "$TMP/tree/tests/golden/report"
echo '# perf output' >"$TMP/tree/tests/golden/report/perf-fp.txt"
check "layers: a golden file name with a hyphen fails" check_layers.sh 1 \
	"tests/golden/report/perf-fp.txt: a file name is lowercase words"
fresh
mkdir -p "$TMP/tree/tests/golden/report-header"
echo '# perf output' >"$TMP/tree/tests/golden/report-header/perf_fp.attr"
check "layers: a golden folder name with a hyphen fails" check_layers.sh 1 \
	"tests/golden/report-header: a folder name is lowercase words"

# And a fuzz target's seed (the corpus files are named like golden files).
fresh
mkdir -p "$TMP/tree/tests/fuzz/corpus/fuzz_ring"
echo 'seed' >"$TMP/tree/tests/fuzz/corpus/fuzz_ring/regress-short-head"
check "layers: a corpus file name with a hyphen fails" check_layers.sh 1 \
	"tests/fuzz/corpus/fuzz_ring/regress-short-head: a corpus file name is lowercase words"

# A call up the layers without an include: objects of a core file that
# declares and calls a function the profile layer defines.
if command -v "${CC:-cc}" >/dev/null && command -v nm >/dev/null; then
	# plant SRC_CORE SRC_PROFILE: two sources and their objects.
	plant() {
		echo "$1" >"$TMP/tree/src/lib/core/up.c"
		echo "$2" >"$TMP/tree/src/lib/profile/thing.c"
		mkdir -p "$TMP/tree/build/obj/src/lib/core" "$TMP/tree/build/obj/src/lib/profile"
		"${CC:-cc}" -c "$TMP/tree/src/lib/core/up.c" -o "$TMP/tree/build/obj/src/lib/core/up.o" &&
			"${CC:-cc}" -c "$TMP/tree/src/lib/profile/thing.c" \
				-o "$TMP/tree/build/obj/src/lib/profile/thing.o"
	}
	fresh
	plant 'int profile_thing(void); int core_thing(void) { return profile_thing(); }' \
		'int profile_thing(void) { return 1; }'
	check "layers: a core object calling into profile fails" check_layers.sh 1 \
		"core/up.o \(core\) uses profile_thing \(profile\)"
	# The other way round is how layers are meant to call.
	plant 'int core_thing(void) { return 1; }' \
		'int core_thing(void); int profile_thing(void) { return core_thing(); }'
	check "layers: a profile object calling into core passes" check_layers.sh 0
else
	skip "layers: call check: no C compiler or nm"
fi

# The command including a private header of the library.
fresh
echo '#include "core_priv.h"' >>"$TMP/tree/src/cli/main.c"
check "cli includes: main.c including core_priv.h fails" check_cli_includes.sh 1 \
	"src/cli/main.c includes core_priv.h"

# The same reached by a path: the file exists, the name lookups would not
# see it (found by an audit: both checks passed it).
fresh
echo '#include "../lib/core/core_priv.h"' >>"$TMP/tree/src/cli/evname.c"
check "cli includes: a private header reached by a path fails" check_cli_includes.sh 1 \
	"src/cli/evname.c includes ../lib/core/core_priv.h"
fresh
echo '#include "../profile/profile_priv.h"' >>"$TMP/tree/src/lib/core/log.c"
check "layers: a core file including ../profile/profile_priv.h fails" check_layers.sh 1 \
	"src/lib/core/log.c includes ../profile/profile_priv.h: include headers by name"

# The command is compiled without the library's folders on the include
# path: a private header by name does not compile.
if command -v "${CC:-cc}" >/dev/null; then
	flags=$(make -s -C "$ROOT" -n BUILD=build "build/obj/src/cli/evname.o" -W src/cli/evname.c 2>/dev/null |
		grep -m1 -o -- ' -I[^ ]*' | tr -d '\n')
	if [ "$flags" = " -Iinclude" ]; then
		pass "cli build: only include/ on the command's include path"
	else
		fail "cli build: the command's include path is '$flags', not ' -Iinclude'"
	fi
else
	skip "cli build: no C compiler"
fi

# The docs name the tree as it is: each layer in README's layout and in
# architecture.md's table, each folder README's layout names exists.
layout=$(sed -n '/^## Layout/,/^## /p' "$ROOT/README.md")
missing=
for d in "$ROOT"/src/lib/*/; do
	l=$(basename "$d")
	grep -qE "^  $l/ " <<<"$layout" || missing+=" README:$l"
	grep -qE "^\| $l \|" "$ROOT/docs/architecture.md" || missing+=" architecture.md:$l"
done
# A folder: a word ending in / at the start of a line or after two spaces.
for p in $(grep -oE '(^|[[:space:]]{2})[a-z/]+/([[:space:]]|$)' <<<"$layout" | tr -d ' ' | sort -u); do
	case $p in
	*/*/) [ -d "$ROOT/$p" ] || missing+=" $p" ;;
	*) [ -d "$ROOT/$p" ] || [ -d "$ROOT/src/lib/$p" ] || missing+=" $p" ;;
	esac
done
[ -z "$missing" ] && pass "docs: README's layout and architecture.md name every layer, and only folders that exist" ||
	fail "docs: layout out of date:$missing"
