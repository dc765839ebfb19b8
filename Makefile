# tengen — build, test, run. `make test` runs everything CI runs.
CC ?= cc
BUILD ?= build
PREFIX ?= /usr/local
OPT ?= -O3
SAN ?=

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS += -Iinclude -D_DEFAULT_SOURCE
CFLAGS += -std=c11 $(OPT) -g $(WARN) -MMD -MP -pthread
LDLIBS += -lcivetweb -ljansson -lncursesw -lpthread -lm
ifeq ($(SAN),1)
CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
CPPFLAGS += -DTENGEN_DEBUG
LDFLAGS += -fsanitize=address,undefined
endif

LIB_SRC := $(wildcard src/core/*.c src/rules/*.c src/game/*.c src/record/*.c src/engine/*.c \
                      src/proto/*.c src/tui/*.c src/web/*.c)
PBRAIN_MAIN := src/cli/pbrain_main.c
CLI_SRC := $(filter-out $(PBRAIN_MAIN),$(wildcard src/cli/*.c))
TEST_SUPPORT := $(wildcard tests/support/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)

LIB := $(BUILD)/libtengen.a
LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(BUILD)/%.o)
SUPPORT_OBJ := $(TEST_SUPPORT:%.c=$(BUILD)/%.o)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)
PROGRAMS := $(BUILD)/tengen $(if $(wildcard $(PBRAIN_MAIN)),$(BUILD)/pbrain-tengen)

.SECONDARY:
.PHONY: all deps test check run bench debug clean install format
all: $(PROGRAMS) $(UNIT_BIN) $(BUILD)/gen-puzzles

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c $< -o $@

$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/tengen: $(CLI_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) $(CLI_OBJ) $(LIB) $(LDLIBS) -o $@

$(BUILD)/pbrain-tengen: $(BUILD)/$(PBRAIN_MAIN:.c=.o) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BUILD)/tests/%: $(BUILD)/tests/unit/%.o $(SUPPORT_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -lcmocka -o $@

# One configuration: unit tests, then command-line and protocol tests.
check: all
	@scripts/run-tests.sh $(BUILD)

# Everything: an optimised gcc build, then clang with ASan+UBSan and the
# debug invariants (proves clang builds -Werror clean as well).
# Installs missing Debian packages (as root) or says which are missing.
deps:
	@scripts/deps.sh

test: deps
	$(MAKE) check
	$(MAKE) check BUILD=build/san CC=clang SAN=1 OPT=-O1

debug:
	$(MAKE) all BUILD=build/debug SAN=1 OPT=-O0

run: deps
	$(MAKE) all
	$(BUILD)/tengen serve $(if $(PORT),--port $(PORT))

bench: all
	$(BUILD)/tengen bench

format:
	clang-format -i $$(find src include tests -name '*.[ch]')

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(PROGRAMS) $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/tengen
	install -m 644 $(LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 include/tengen/*.h $(DESTDIR)$(PREFIX)/include/tengen/
	install -d $(DESTDIR)$(PREFIX)/share/tengen/static
	install -m 644 web/static/* $(DESTDIR)$(PREFIX)/share/tengen/static/

clean:
	rm -rf build

-include $(wildcard $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(SUPPORT_OBJ:.o=.d) $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/unit/%.d) $(BUILD)/$(PBRAIN_MAIN:.c=.d))

# Tools that make test data (not part of `all`): build/gen-puzzles.
.PHONY: tools
tools: $(BUILD)/gen-puzzles
$(BUILD)/gen-puzzles: $(BUILD)/tools/gen_puzzles.o $(SUPPORT_OBJ) $(LIB)
	$(CC) $(CFLAGS) $(LDFLAGS) $^ $(LDLIBS) -o $@
