# SPDX-License-Identifier: BSD-2-Clause
# robots-audit build.  `make` builds build/robots-audit; `make test` builds
# everything and runs every test.  Both install their Debian prerequisites
# first (scripts/deps.sh; a no-op when present).

CC       ?= cc
WARN     := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wpointer-arith
BASE     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -Icommon
OPT      ?= -O2
CFLAGS   ?= -g
SAN      := -fsanitize=address,undefined -fno-sanitize-recover=all \
            -fno-omit-frame-pointer
B        := build
DEPS     := scripts/deps.sh

CORE_SRCS := $(sort $(wildcard common/*.c))
# c-ares lookups (below common/, which nginx compiles whole): the CLI and
# the Apache module link them, nginx resolves with its own resolver
RESOLVER_SRCS := $(sort $(wildcard common/resolver/*.c))
CLI_SRCS  := $(sort $(wildcard cli/*.c)) $(RESOLVER_SRCS)
TEST_SRCS := $(sort $(wildcard tests/test_*.c))
TEST_AUX  := $(filter-out tests/test_%.c,$(wildcard tests/*.c))
# zlib and libbrotlidec: the core undoes Content-Encoding (ra_decode.c)
DECODE_LIBS := -lz -lbrotlidec -lcrypto
CLI_LIBS  := $(DECODE_LIBS) -lm -lcares
# the unit tests make br input with libbrotlienc
TEST_LIBS := $(CLI_LIBS) -lbrotlienc

CORE_OBJS     := $(CORE_SRCS:%.c=$(B)/obj/%.o)
CORE_SAN_OBJS := $(CORE_SRCS:%.c=$(B)/san/%.o)

# The crawler table (data/crawlers.txt) is embedded into the core as bytes
# that the same loader parses as an operator's file: one format, one parser.
GEN_SRCS      := $(B)/gen/ra_crawlers_data.c $(B)/gen/ra_referrers_data.c
CORE_OBJS     += $(GEN_SRCS:%.c=$(B)/obj/%.o)
CORE_SAN_OBJS += $(GEN_SRCS:%.c=$(B)/san/%.o)
CLI_OBJS      := $(CLI_SRCS:%.c=$(B)/obj/%.o)
TESTS_SAN     := $(TEST_SRCS:tests/%.c=$(B)/tests/san/%)
TESTS_PLAIN   := $(TEST_SRCS:tests/%.c=$(B)/tests/plain/%)

.PHONY: all deps test unit-test valgrind-test prove-test bench clean demo \
        check-docs
.DELETE_ON_ERROR:
# keep the sanitizer objects between test builds
.SECONDARY:

all: deps $(B)/robots-audit $(B)/mod_robots_audit.so $(B)/ngx_http_robots_audit_module.so

deps:
	@$(DEPS) build

# Everything compiled waits for deps (order-only: its time stamp means
# nothing), so that `make -jN` on a fresh machine installs the headers
# before the first compiler starts.
$(B)/obj/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(BASE) $(CPPFLAGS) $(OPT) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(B)/san/%.o: %.c | deps
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -O1 $(CFLAGS) $(SAN) -fPIC -MMD -MP -c $< -o $@

# generated sources (see GEN_SRCS above)
$(B)/gen/ra_crawlers_data.c: data/crawlers.txt scripts/embed.sh
	@mkdir -p $(dir $@)
	scripts/embed.sh ra_crawlers_builtin data/crawlers.txt > $@

$(B)/gen/ra_referrers_data.c: data/referrers.txt scripts/embed.sh
	@mkdir -p $(dir $@)
	scripts/embed.sh ra_referrers_builtin data/referrers.txt > $@

$(B)/libra.a: $(CORE_OBJS)
	@rm -f $@
	ar rcs $@ $^

# libcurl: `robots-audit ranges update` (cli/cmd_ranges.c) only, which
# loads it when it fetches (cli/ra_curl.c): not linked, so that the other
# commands start without it; the core and the modules never use it
$(B)/robots-audit: $(CLI_OBJS) $(B)/libra.a
	$(CC) $(OPT) $(CFLAGS) $(LDFLAGS) -o $@ $(CLI_OBJS) $(B)/libra.a $(CLI_LIBS)

# The Apache module: apxs compiles the glue, every apache_module/*.c
# (through links in build/, so that libtool's objects stay out of the
# source tree) and links it with the core's PIC objects; the version script
# exports robots_audit_module and ra_* only.
APXS ?= apxs
APX_SRCS := $(sort $(wildcard apache_module/*.c))
$(B)/mod_robots_audit.so: $(APX_SRCS) $(wildcard apache_module/*.h) \
    apache_module/exports.map $(CORE_OBJS) $(wildcard common/*.h) \
    $(wildcard common/resolver/*.h) $(RESOLVER_SRCS:%.c=$(B)/obj/%.o) | deps
	@mkdir -p $(B)/apache
	@rm -f $(B)/apache/*.c
	@ln -sf $(APX_SRCS:%=../../%) $(B)/apache/
	$(APXS) -c -o $(B)/apache/mod_robots_audit.la -Icommon -Iapache_module \
	    -Wc,-std=c11 $(WARN:%=-Wc,%) -Wc,-D_GNU_SOURCE $(CPPFLAGS:%=-Wc,%) \
	    $(CFLAGS:%=-Wc,%) $(LDFLAGS:%=-Wl,%) \
	    -Wl,-Wl,--version-script=apache_module/exports.map \
	    $(APX_SRCS:apache_module/%=$(B)/apache/%) $(CORE_OBJS) \
	    $(RESOLVER_SRCS:%.c=$(B)/obj/%.o) $(DECODE_LIBS) -lcares > $(B)/apache/build.log 2>&1 || { cat $(B)/apache/build.log; exit 1; }
	cp $(B)/apache/.libs/mod_robots_audit.so $@

# the t/ tests drive the stock Apache with this module
prove-test: $(B)/mod_robots_audit.so

# The nginx module: nginx's own build over the `config` script (the glue,
# the core and the embedded crawler table), configured as Debian's stock
# nginx was (nginx-dev's sources and flags, --with-compat) so that
# /usr/sbin/nginx loads it.  Static development build: in an nginx source
# tree, ./configure --add-module=$(CURDIR) && make.
NGX_SRC ?= /usr/share/nginx/src
$(B)/ngx_http_robots_audit_module.so: config scripts/nginx-module.sh \
    $(wildcard ngx_module/*.[ch]) $(CORE_SRCS) $(wildcard common/*.h) \
    data/crawlers.txt data/referrers.txt scripts/embed.sh | deps
	@mkdir -p $(B)
	scripts/nginx-module.sh $(NGX_SRC) $(B)/nginx-src $@

# the t/ tests drive the stock nginx with this module
prove-test: $(B)/ngx_http_robots_audit_module.so

$(B)/tests/san/%: tests/%.c $(TEST_AUX) $(CORE_SAN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -Itests -O1 $(CFLAGS) $(SAN) -o $@ $< $(TEST_AUX) \
	    $(CORE_SAN_OBJS) -lcmocka $(TEST_LIBS)

$(B)/tests/plain/%: tests/%.c $(TEST_AUX) $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -Itests -O1 $(CFLAGS) -o $@ $< $(TEST_AUX) \
	    $(CORE_OBJS) -lcmocka $(TEST_LIBS)

# The resolver thread's test links the resolver's objects (c-ares) too.
$(B)/tests/san/test_ares_thread: tests/test_ares_thread.c $(TEST_AUX) \
    $(CORE_SAN_OBJS) $(RESOLVER_SRCS:%.c=$(B)/san/%.o)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -Itests -O1 $(CFLAGS) $(SAN) -o $@ $< $(TEST_AUX) \
	    $(CORE_SAN_OBJS) $(RESOLVER_SRCS:%.c=$(B)/san/%.o) -lcmocka \
	    $(TEST_LIBS) -lpthread

$(B)/tests/plain/test_ares_thread: tests/test_ares_thread.c $(TEST_AUX) \
    $(CORE_OBJS) $(RESOLVER_SRCS:%.c=$(B)/obj/%.o)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -Itests -O1 $(CFLAGS) -o $@ $< $(TEST_AUX) $(CORE_OBJS) \
	    $(RESOLVER_SRCS:%.c=$(B)/obj/%.o) -lcmocka $(TEST_LIBS) -lpthread

# The fault-injection test links the ledger built with its RA_STEP() hook
# (RA_LEDGER_FAULT) instead of the core's own objects: every file of the
# ledger (common/ra_ledger*.c), since each holds steps of its changes.
LEDGER_SRCS      := $(sort $(wildcard common/ra_ledger*.c))
LEDGER_HDRS      := $(sort $(wildcard common/ra_ledger*.h))
FAULT_SAN_OBJS   := $(filter-out $(LEDGER_SRCS:%.c=$(B)/san/%.o),$(CORE_SAN_OBJS))
FAULT_PLAIN_OBJS := $(filter-out $(LEDGER_SRCS:%.c=$(B)/obj/%.o),$(CORE_OBJS))
$(B)/tests/san/test_ledger_fault: tests/test_ledger_fault.c $(LEDGER_SRCS) \
    $(LEDGER_HDRS) $(TEST_AUX) $(CORE_SAN_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -Itests -O1 $(CFLAGS) $(SAN) -DRA_LEDGER_FAULT -o $@ $< \
	    $(LEDGER_SRCS) $(TEST_AUX) $(FAULT_SAN_OBJS) -lcmocka $(TEST_LIBS)

$(B)/tests/plain/test_ledger_fault: tests/test_ledger_fault.c \
    $(LEDGER_SRCS) $(LEDGER_HDRS) $(TEST_AUX) $(CORE_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -Itests -O1 $(CFLAGS) -DRA_LEDGER_FAULT -o $@ $< \
	    $(LEDGER_SRCS) $(TEST_AUX) $(FAULT_PLAIN_OBJS) -lcmocka \
	    $(TEST_LIBS)

# Every unit test under ASan+UBSan, then once more under valgrind.
unit-test: $(TESTS_SAN) $(B)/robots-audit
	@tests/run-unit.sh san $(TESTS_SAN)

valgrind-test: $(TESTS_PLAIN) $(B)/robots-audit
	@tests/run-unit.sh valgrind $(TESTS_PLAIN)

prove-test: $(B)/robots-audit
	@if ls t/*.t >/dev/null 2>&1; then prove -I t/lib t/; fi

# The builds first, one job per CPU; then the checks one after another
# (the server tests must not share the CPUs with a build).
JOBS := $(shell nproc 2>/dev/null || echo 1)
test:
	@$(DEPS) test
	@$(MAKE) --no-print-directory -j$(JOBS) $(B)/robots-audit \
	    $(B)/ngx_http_robots_audit_module.so $(B)/mod_robots_audit.so \
	    $(TESTS_SAN) $(TESTS_PLAIN)
	@$(MAKE) --no-print-directory check-docs unit-test valgrind-test \
	    prove-test fuzz-smoke

# every log tag registered and documented, no citation of a file outside
# the repository, a licence line in every source file, every option of
# each command's --help in docs/cli.md and the man page, every RA_*
# environment variable in docs/development.md, every sample and figure the
# docs quote as a real run prints it (the demo's too: the nginx module)
check-docs: $(B)/robots-audit $(B)/ngx_http_robots_audit_module.so
	@sh scripts/check-docs.sh

# the demo: nginx with the module on loopback, traffic replayed (Ctrl-C stops)
demo:
	@scripts/demo.sh

# Debian packages of the two modules and the CLI, into build/deb/, built
# by debhelper from debian/ and checked by lintian (scripts/deb.sh;
# t/050-packages.t installs them into the stock servers)
.PHONY: deb
deb: deps
	@scripts/deb.sh $(B)/deb

bench: all
	@$(DEPS) bench
	@bench/run.sh

# a core benchmark: bench/NAME.c over the core library (bench/*.sh build
# theirs with `make build/bench/NAME`)
$(B)/bench/%: bench/%.c $(B)/libra.a
	@mkdir -p $(dir $@)
	$(CC) $(BASE) -O2 -g -o $@ $< $(B)/libra.a $(DECODE_LIBS) -lm

# Fuzzing: libFuzzer targets fuzz/fuzz_*.c under ASan+UBSan,
# built with clang into build/fuzz/.  `make fuzz` builds them; fuzz-smoke
# runs each for FUZZ_SMOKE seconds on its committed corpus (fuzz/corpus/);
# scripts/fuzz.sh run SECONDS TARGET... is the long run.
FUZZ_CC    ?= clang
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer
FUZZ_SMOKE ?= 10
FUZZ_SRCS  := $(sort $(wildcard fuzz/fuzz_*.c))
FUZZ_BINS  := $(FUZZ_SRCS:fuzz/%.c=$(B)/fuzz/%)
FUZZ_OBJS  := $(CORE_SRCS:%.c=$(B)/fuzz/obj/%.o) \
              $(GEN_SRCS:%.c=$(B)/fuzz/obj/%.o)

.PHONY: fuzz fuzz-build fuzz-smoke

$(B)/fuzz/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(BASE) -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer-no-link \
	    -MMD -MP -c $< -o $@

$(B)/fuzz/fuzz_%: fuzz/fuzz_%.c fuzz/fuzz.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(BASE) -Ifuzz -O1 -g $(FUZZ_SAN) -fsanitize=fuzzer \
	    -o $@ $< $(FUZZ_OBJS) $(CLI_LIBS)

fuzz:
	@$(DEPS) fuzz
	@$(MAKE) --no-print-directory fuzz-build

fuzz-build: $(FUZZ_BINS)

fuzz-smoke: fuzz
	@scripts/fuzz.sh smoke $(FUZZ_SMOKE) $(FUZZ_BINS)

clean:
	rm -rf $(B)

-include $(shell find $(B) -name '*.d' 2>/dev/null)
