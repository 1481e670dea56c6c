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
CFLAGS   += -std=c11 $(OPT) $(WARN) $(SAN) $(NCURSES_CFLAGS) $(JANSSON_CFLAGS) -pthread
LDFLAGS  += $(SAN) -pthread
LDLIBS   := $(NCURSES_LIBS) $(JANSSON_LIBS) $(CSV_LIBS) -lm

CORE_SRC := $(sort $(filter-out src/main.c src/ui_%.c,$(wildcard src/*.c)))
UI_SRC   := $(sort $(wildcard src/ui_*.c))
CORE_OBJ := $(CORE_SRC:src/%.c=$(BUILD)/%.o)
UI_OBJ   := $(UI_SRC:src/%.c=$(BUILD)/%.o)
TEST_SRC := $(sort $(wildcard tests/test_*.c))
TEST_BIN := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%)
BIN      := $(if $(filter 1,$(SANITIZE)),$(BUILD)/gpuscale,gpuscale)

# Debian packages needed to build, test and run.
DEPS_PKGS := gcc make pkg-config libncurses-dev libcsv-dev libjansson-dev libcmocka-dev \
             tmux mandoc

.PHONY: all run check deps install uninstall clean bench fuzz lint tests
all: $(BIN)

$(BUILD)/%.o: src/%.c $(wildcard include/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -c -o $@ $<

$(BUILD)/libgscore.a: $(CORE_OBJ)
	$(AR) rcs $@ $^

$(BIN): $(BUILD)/main.o $(UI_OBJ) $(BUILD)/libgscore.a
	$(CC) $(LDFLAGS) -o $@ $(BUILD)/main.o $(UI_OBJ) $(BUILD)/libgscore.a $(LDLIBS)

$(BUILD)/tests/%: tests/%.c $(BUILD)/libgscore.a $(wildcard tests/*.h) | $(BUILD)
	$(CC) $(CPPFLAGS) -Itests $(CFLAGS) -Wno-missing-prototypes -o $@ $< \
		$(LDFLAGS) $(BUILD)/libgscore.a $(CMOCKA_LIBS) $(LDLIBS)

$(BUILD):
	mkdir -p $(BUILD)/tests

tests: $(BIN) $(TEST_BIN)

# Runs every unit and end-to-end test; the last line is "N passed, N failed".
check: tests
	@GPUSCALE=$(CURDIR)/$(BIN) BUILD=$(CURDIR)/$(BUILD) SANITIZE=$(SANITIZE) sh tests/run.sh

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

lint:
	mandoc -Tlint -W warning man/gpuscale.1

clean:
	rm -rf build build-san build-fuzz gpuscale

-include $(wildcard $(BUILD)/*.d)
