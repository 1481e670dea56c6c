# gpuscale: see README.md. `make run` installs what is missing, builds and starts the explorer;
# `make check` runs every test.

PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     := $(PREFIX)/bin
DATADIR    := $(PREFIX)/share/gpuscale
MANDIR     := $(PREFIX)/share/man/man1
CC         ?= cc
PKG_CONFIG ?= pkg-config
VERSION    := 0.1.0

NCURSES_CFLAGS := $(shell $(PKG_CONFIG) --cflags ncursesw 2>/dev/null)
NCURSES_LIBS   := $(shell $(PKG_CONFIG) --libs ncursesw 2>/dev/null || echo -lncursesw)
JANSSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JANSSON_LIBS   := $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null || echo -ljansson)
CMOCKA_LIBS    := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
GSL_CFLAGS     := $(shell $(PKG_CONFIG) --cflags gsl 2>/dev/null)
GSL_LIBS       := $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || echo -lgsl -lgslcblas -lm)
# libcsv ships no .pc file
CSV_LIBS       := -lcsv

WARN := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wformat=2 \
        -Wwrite-strings -Wno-format-nonliteral
ifeq ($(WERROR),1)
WARN += -Werror
endif

OPT ?= -O2 -g
ifeq ($(SANITIZE),1)
OPT   := -O1 -g -fno-omit-frame-pointer
SAN   := -fsanitize=address,undefined -fno-sanitize-recover=undefined
BUILD := build-san
else
BUILD := build
endif

CPPFLAGS += -Iinclude -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
            -DGS_VERSION='"$(VERSION)"' -DGS_SRCDATA='"$(CURDIR)/data"' -DGS_SHAREDIR='"$(DATADIR)"'
CFLAGS   ?=
CFLAGS   += -std=c11 -ffp-contract=off $(OPT) $(WARN) $(SAN) $(NCURSES_CFLAGS) $(JANSSON_CFLAGS) $(GSL_CFLAGS)
LDFLAGS  += $(SAN)
# linked as a Debian package links: against the shared libraries, so that their fixes reach it
LDLIBS   := $(NCURSES_LIBS) $(JANSSON_LIBS) $(CSV_LIBS) $(GSL_LIBS) -lm

# the front (main and the command line) and the explorer sit on the core library; the core
# includes neither of their headers
FRONT_SRC := src/main.c src/cli.c src/cli_import.c src/cli_load.c
CORE_SRC := $(sort $(filter-out $(FRONT_SRC) src/ui_%.c,$(wildcard src/*.c)))
UI_SRC   := $(sort $(wildcard src/ui_*.c))
FRONT_OBJ := $(FRONT_SRC:src/%.c=$(BUILD)/%.o)
CORE_OBJ := $(CORE_SRC:src/%.c=$(BUILD)/%.o)
UI_OBJ   := $(UI_SRC:src/%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_NAMES := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=%)
REPLAY_BIN := $(FUZZ_NAMES:%=$(BUILD)/tests/replay_%)
BIN      := $(if $(filter 1,$(SANITIZE)),$(BUILD)/gpuscale,gpuscale)

# Debian packages needed to build, test and run.
DEPS_PKGS := gcc make pkg-config libncurses-dev libcsv-dev libjansson-dev libcmocka-dev \
             libgsl-dev python3-scipy tmux mandoc strace valgrind

.PHONY: all run check deps install uninstall clean bench bench-readme fuzz lint tests
all: $(BIN)

$(BUILD)/%.o: src/%.c | $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -MP -c -o $@ $<

# made afresh: `ar r` keeps the members of source files since removed (a stale utf8.o once
# shadowed text.c's utf8_sanitize in an incremental build)
$(BUILD)/libgscore.a: $(CORE_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# the explorer as a library too, so that tests can drive its state without a terminal
$(BUILD)/libgsui.a: $(UI_OBJ)
	$(AR) rcs $@ $^

$(BIN): $(FRONT_OBJ) $(BUILD)/libgsui.a $(BUILD)/libgscore.a
	$(CC) $(LDFLAGS) -o $@ $(FRONT_OBJ) $(BUILD)/libgsui.a $(BUILD)/libgscore.a $(LDLIBS)

$(BUILD)/tests/test_ui_%: tests/test_ui_%.c $(BUILD)/libgsui.a $(BUILD)/libgscore.a $(wildcard tests/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) -Wno-missing-prototypes -o $@ $< \
		$(LDFLAGS) $(BUILD)/libgsui.a $(BUILD)/libgscore.a $(CMOCKA_LIBS) $(LDLIBS)

# test_cmdline reads the shown line back with the command line's own parser
$(BUILD)/tests/test_cmdline: tests/test_cmdline.c $(BUILD)/cli.o $(BUILD)/libgscore.a $(wildcard tests/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) -Wno-missing-prototypes -o $@ $< $(BUILD)/cli.o \
		$(LDFLAGS) $(BUILD)/libgscore.a $(CMOCKA_LIBS) $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libgscore.a $(wildcard tests/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) -Wno-missing-prototypes -o $@ $< \
		$(LDFLAGS) $(BUILD)/libgscore.a $(CMOCKA_LIBS) $(LDLIBS)

# Replays every fuzz corpus and regression input with the ordinary compiler (in make check).
$(BUILD)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(BUILD)/libgscore.a | $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< tests/fuzz/replay.c $(LDFLAGS) $(BUILD)/libgscore.a $(LDLIBS)

$(BUILD):
	mkdir -p $(BUILD)/tests

tests: $(BIN) $(TEST_BIN) $(REPLAY_BIN)

# libFuzzer targets (clang): each runs FUZZ_SECONDS on its corpus; a crash stops with the input
# saved under build-fuzz/, to be added to tests/fuzz/regress/NAME/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_SAN     := -g -O1 -std=c11 -ffp-contract=off -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_OBJ     := $(CORE_SRC:src/%.c=build-fuzz/%.o)
# the core is compiled once, instrumented, for all the targets
build-fuzz/%.o: src/%.c
	@mkdir -p build-fuzz
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer-no-link $(CPPFLAGS) $(JANSSON_CFLAGS) $(GSL_CFLAGS) -MMD -MP -c -o $@ $<

build-fuzz/libgscore.a: $(FUZZ_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

build-fuzz/fuzz_%: tests/fuzz/fuzz_%.c build-fuzz/libgscore.a
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer $(CPPFLAGS) $(JANSSON_CFLAGS) -MMD -MP -o $@ $< \
		build-fuzz/libgscore.a $(JANSSON_LIBS) $(CSV_LIBS) $(GSL_LIBS) -lm

fuzz:
	@sh tests/deps.sh --quiet clang libclang-rt-dev
	@$(MAKE) --no-print-directory $(FUZZ_NAMES:%=build-fuzz/fuzz_%)
	@for t in $(FUZZ_NAMES); do \
		mkdir -p build-fuzz/corpus_$$t; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
		dirs=build-fuzz/corpus_$$t; \
		for d in tests/fuzz/corpus/$$t tests/fuzz/regress/$$t; do [ -d $$d ] && dirs="$$dirs $$d"; done; \
		if [ $$t = csv ]; then dirs="$$dirs tests/malformed"; fi; \
		build-fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=0 -artifact_prefix=build-fuzz/$$t- $$dirs 2>build-fuzz/$$t.log \
			|| { tail -n 30 build-fuzz/$$t.log; exit 1; }; \
		grep -E '^#[0-9]+.*DONE|stat::number_of_executed_units' build-fuzz/$$t.log | tail -n 1; \
	done

# Runs every unit and end-to-end test; the last line is "N passed, N failed".
check:
	@sh tests/deps.sh --quiet $(DEPS_PKGS)
	@$(MAKE) --no-print-directory tests
	@GPUSCALE=$(CURDIR)/$(BIN) BUILD=$(CURDIR)/$(BUILD) \
		SANITIZE=$(SANITIZE) sh tests/run.sh

# Installs missing Debian packages (as root, or through sudo); otherwise says what to run.
deps:
	@sh tests/deps.sh $(DEPS_PKGS)

run:
	@sh tests/deps.sh --quiet $(DEPS_PKGS)
	@$(MAKE) --no-print-directory all
	./gpuscale

install: $(BIN)
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(MANDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/gpuscale
	install -m 644 data/*.csv $(DESTDIR)$(DATADIR)/
	install -m 644 man/gpuscale.1 $(DESTDIR)$(MANDIR)/gpuscale.1

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpuscale $(DESTDIR)$(MANDIR)/gpuscale.1
	rm -rf $(DESTDIR)$(DATADIR)

# Speed against floors and budgets, as ratios measured side by side (see tests/bench/README).
bench: $(BIN) $(BUILD)/libgscore.a
	@mkdir -p $(BUILD)/bench
	@{ BUILD=$(CURDIR)/$(BUILD) GPUSCALE=$(CURDIR)/$(BIN) CC="$(CC)" CFLAGS="$(CFLAGS)" \
		CPPFLAGS="$(CPPFLAGS)" LDLIBS="$(LDLIBS)" sh tests/bench/run.sh; echo $$? >$(BUILD)/bench/rc; } | \
		tee $(BUILD)/bench/last.txt; exit $$(cat $(BUILD)/bench/rc)

# the table of tests/bench/README, between its marker lines, from a fresh make bench
bench-readme: bench
	@awk -v f=$(BUILD)/bench/last.txt '/^<!-- bench:end -->/ { print "```"; while ((getline l < f) > 0) \
		print l; print "```"; skip = 0 } !skip { print } /^<!-- bench:begin -->/ { skip = 1 }' \
		tests/bench/README >$(BUILD)/bench/README && mv $(BUILD)/bench/README tests/bench/README

lint:
	mandoc -Tlint -W warning man/gpuscale.1

clean:
	rm -rf build build-san build-fuzz gpuscale

-include $(wildcard $(BUILD)/*.d build-fuzz/*.d)
