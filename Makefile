# SPDX-License-Identifier: GPL-2.0
# vcube: the module, the userspace library and tools, and their tests.
#
#   make                build vcube.ko (against KDIR) and the userspace parts
#   make check          every test layer; closes with "N passed, N failed"
#   make demo           32 processes on a dim=5 iPSC/860: Bokhari's exchanges,
#                       their table and plot, the busiest links
#   make vm CMD=... MODPARAMS=... [KVER=6.12|6.1]
#   make reproduce      docs/reproductions.md and docs/control-network.md
#   make reproduce-cnet docs/control-network.md alone (about 2 minutes)
#   make readme-commands the README's benchmark lines, as written, in the VM
#   make bench          docs/performance.md: vcube beside pipes, SMPI and Open MPI
#                       in the guest, and the engine alone on the host
#   make timelines      docs/timelines.md: time-space diagrams of two exchanges
#   make trace-picture  docs/perfetto-naive.svg: the README's Perfetto export
#                       of a naive exchange (in the VM), as Perfetto lays it out
#   make cluster        docs/cluster.md: the plans over Open MPI on this host
#                       beside vcube-sim's prediction
#   make crosscheck     docs/crosscheck.md: vcube beside SimGrid's SMPI, the
#                       same MPI program on a torus, a fat tree, a dragonfly
#   make mpi-example    the README's MPI example table: MPI_Alltoall against
#                       vcube-bench per algorithm, and under Open MPI
#   make deps           install what all of the above needs (Debian, apt)
#   make clean          back to the checked-out tree

# The module: the running kernel's build directory when there is one,
# else the newest Debian linux-headers-*-amd64 installed.
KDIR ?= $(firstword $(wildcard /lib/modules/$(shell uname -r)/build) \
	$(lastword $(sort $(wildcard /usr/src/linux-headers-*-amd64))))
# The VM's kernel line; the module is built against the matching headers.
KVER ?= 6.12
MODPARAMS ?= topology=hypercube dim=5
CMD ?= vcubectl show && vcubectl nodes
# Handed to the recipes through the environment as typed: $(value) keeps
# make from expanding the $ of a shell command ('echo $VCUBE_OUT' reaches
# the guest's shell as it is), and any quoting goes through untouched.
export VCUBE_MODPARAMS := $(value MODPARAMS)
export VCUBE_CMD := $(value CMD)

# One version for the module, the library and the tools (VERSION).
VERSION := $(shell cat VERSION)
CC ?= gcc
CFLAGS ?= -O2 -g
VCUBE_CFLAGS := -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror \
	-DVCUBE_VERSION='"$(VERSION)"' \
	-Iinclude/uapi -Iuserspace/lib/include -Iuserspace/lib \
	$(shell pkg-config --cflags libnl-genl-3.0 2>/dev/null) \
	$(shell pkg-config --cflags json-c 2>/dev/null)
NL_LIBS := $(shell pkg-config --libs libnl-genl-3.0 2>/dev/null || echo -lnl-genl-3 -lnl-3)
# json-c: every JSON the tools write or read (userspace/tools/common/json_print.c);
# the library does not use it.
JSON_LIBS := $(shell pkg-config --libs json-c 2>/dev/null || echo -ljson-c)
B := build

LIB_SRC := $(wildcard userspace/lib/*.c userspace/lib/plan/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(B)/%.o)
CORE_SRC := $(filter-out %_test.c,$(wildcard kernel/core/*.c))
# Networks read from files (anynet, GraphML), on their own (libxml2).
GRAPH_SRC := $(wildcard userspace/tools/graph/*.c)
XML_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
XML_LIBS := $(shell pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2)
TOOLS := $(patsubst userspace/tools/%.c,$(B)/bin/%,$(wildcard userspace/tools/*.c))
# vcube-bench over MPI, run by vcube-bench --transport mpi (see below)
BENCH_MPI := $(B)/libexec/vcube/vcube-bench-mpi
# What the tools share (userspace/tools/common/), built into each.
TOOL_COMMON := $(wildcard userspace/tools/common/*.c)
TOOL_DEPS := $(TOOL_COMMON) $(wildcard userspace/tools/common/*.h)
HOST_TESTS := $(patsubst tests/host/%.c,$(B)/tests/%,$(wildcard tests/host/*.c))
VM_TESTS := $(patsubst tests/vm/%.c,$(B)/tests/vm/%,$(wildcard tests/vm/*.c))
STRESS := $(patsubst tests/stress/%.c,$(B)/tests/stress/%,$(wildcard tests/stress/*.c))
BENCH := $(patsubst bench/%.c,$(B)/bench/%,$(wildcard bench/*.c))
EXAMPLES := $(patsubst examples/%.c,$(B)/examples/%,$(wildcard examples/*.c))

.PHONY: all module userspace mpi tests deps vm demo check kunit bench bench-engine bench-sim bench-topo golden-update mpi-conformance \
	install install-userspace install-dkms dkms deb mpi-example cluster crosscheck timelines trace-picture validate reproduce reproduce-cnet score score-report score-smoke readme-commands clean \
	stress check-debug
all: module userspace

# ---- kernel module --------------------------------------------------------
# Each kernel release builds in its own copy of the sources under
# build/<release>/ so that 6.1 and 6.12 objects never mix.
MOD_SRC := Kbuild $(wildcard kernel/*.[ch] kernel/core/*.[ch]) include/uapi/linux/vcube.h VERSION
krel = $(shell sed -n 's/.*UTS_RELEASE "\(.*\)"/\1/p' $(1)/include/generated/utsrelease.h 2>/dev/null)

module:
	@test -n "$(KDIR)" -a -d "$(KDIR)" || { echo "no kernel headers: run 'make deps' or set KDIR=" >&2; exit 1; }
	@$(MAKE) --no-print-directory modbuild KDIR=$(KDIR) KREL=$(call krel,$(KDIR))

modbuild: $(B)/$(KREL)/vcube.ko
$(B)/$(KREL)/vcube.ko: $(MOD_SRC)
	@mkdir -p $(B)/$(KREL)
	cp -a --parents $(filter-out %_test.c,$(MOD_SRC)) $(B)/$(KREL)/
	$(MAKE) -C $(KDIR) M=$(CURDIR)/$(B)/$(KREL) modules
	@echo "built $@"

# ---- userspace ------------------------------------------------------------
# libvcube comes static (libvcube.a) and shared (libvcube.so.$(SOMAJOR), its
# exports fixed by userspace/lib/libvcube.map and checked against the public
# header at every link). The tools link the static one unless LIB_LINK=shared
# (the Debian packages: debian/rules).
SOMAJOR := 0
SONAME := libvcube.so.$(SOMAJOR)
SO := $(B)/lib/libvcube.so.$(VERSION)
LIB_LINK ?= static
ifeq ($(LIB_LINK),shared)
LIBVCUBE := -L$(B)/lib -lvcube
LIBVCUBE_DEP := $(SO) $(B)/lib-link
else
LIBVCUBE := $(B)/lib/libvcube.a
LIBVCUBE_DEP := $(B)/lib/libvcube.a $(B)/lib-link
endif
# which one the tools were linked with: a change relinks them
$(B)/lib-link: FORCE
	@mkdir -p $(dir $@)
	@echo $(LIB_LINK) | cmp -s - $@ || echo $(LIB_LINK) > $@
.PHONY: FORCE
userspace: $(B)/lib/libvcube.a $(SO) $(TOOLS) $(BENCH_MPI)

$(B)/%.o: %.c $(wildcard userspace/lib/include/*.h userspace/lib/*.h) include/uapi/linux/vcube.h
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(B)/lib/libvcube.a: $(LIB_OBJ)
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(B)/pic/%.o: %.c $(wildcard userspace/lib/include/*.h userspace/lib/*.h) include/uapi/linux/vcube.h
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) $(CPPFLAGS) $(CFLAGS) -fPIC -c -o $@ $<

$(SO): $(LIB_SRC:%.c=$(B)/pic/%.o) userspace/lib/libvcube.map scripts/check-symbols.sh
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,--no-undefined \
		-Wl,--version-script=userspace/lib/libvcube.map -o $@.tmp \
		$(filter %.o,$^) $(NL_LIBS) -lm
	CC="$(CC)" scripts/check-symbols.sh $@.tmp userspace/lib/libvcube.map userspace/lib/include/vcube.h \
		-Iinclude/uapi -Iuserspace/lib/include
	mv $@.tmp $@
	ln -sf $(notdir $@) $(B)/lib/$(SONAME)
	ln -sf $(SONAME) $(B)/lib/libvcube.so

# vcube-mpi: MPI over libvcube (userspace/mpi), static, and its compiler
# wrapper and pkg-config file pointing into this tree (build/bin/vcube-mpicc,
# build/lib/pkgconfig/vcube-mpi.pc).
MPI_SRC := $(wildcard userspace/mpi/*.c)
MPI_OBJ := $(MPI_SRC:%.c=$(B)/%.o)
MPI_LIB := $(B)/lib/libvcube-mpi.a
MPICC := $(B)/bin/vcube-mpicc
$(MPI_OBJ): CPPFLAGS += -Iuserspace/mpi/include -Iuserspace/mpi
$(MPI_OBJ): $(wildcard userspace/mpi/*.h userspace/mpi/include/*.h)
# the profiling interface: each MPI_ function weak, and a PMPI_ name for it
$(MPI_LIB): $(MPI_OBJ) scripts/pmpi-alias.py
	@mkdir -p $(dir $@)
	@rm -rf $(B)/userspace/mpi/pmpi
	scripts/pmpi-alias.py $(B)/userspace/mpi/pmpi $(MPI_OBJ)
	@rm -f $@
	$(AR) rcs $@ $(addprefix $(B)/userspace/mpi/pmpi/,$(notdir $(MPI_OBJ)))
$(MPICC): userspace/mpi/vcube-mpicc.in userspace/mpi/vcube-mpi.pc.in $(MPI_LIB) $(B)/lib/libvcube.a
	@mkdir -p $(dir $@) $(B)/lib/pkgconfig
	sed -e 's|@INCDIR@|$(CURDIR)/userspace/mpi/include|' -e 's|@LIBDIR@|$(CURDIR)/$(B)/lib|' \
		-e 's|@LIBS@|$(NL_LIBS) -lm|' -e 's|@VERSION@|$(VERSION)|' $< > $@.tmp
	chmod 0755 $@.tmp
	mv $@.tmp $@
	sed -e 's|@INCDIR@|$(CURDIR)/userspace/mpi/include|' -e 's|@LIBDIR@|$(CURDIR)/$(B)/lib|' \
		-e 's|@LIBS@|$(NL_LIBS) -lm|' -e 's|@VERSION@|$(VERSION)|' \
		userspace/mpi/vcube-mpi.pc.in > $(B)/lib/pkgconfig/vcube-mpi.pc
mpi: $(MPI_LIB) $(MPICC)
userspace: mpi
# The MPI test programs, built as a user would (tests/mpi; Open MPI's
# builds of the same sources are tests/host/mpi_ompi.sh's).
MPI_TESTS := $(patsubst tests/mpi/%.c,$(B)/tests/mpi/%,$(wildcard tests/mpi/*.c))
$(B)/tests/mpi/%: tests/mpi/%.c tests/mpi/check.h $(MPICC)
	@mkdir -p $(dir $@)
	$(MPICC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ $<
# MPI programs written elsewhere (tests/mpi/foreign/programs), built as they
# come from where scripts/mpi-foreign.sh gathers them: never in the tree.
FOREIGN_DIR := $(or $(VCUBE_CACHE),$(HOME)/.cache/vcube)/mpi-foreign
MPI_FOREIGN := $(addprefix $(B)/tests/mpi/foreign/,$(shell cat tests/mpi/foreign/programs))
# (kept: make would delete them as intermediate files)
.PRECIOUS: $(FOREIGN_DIR)/%.c
$(FOREIGN_DIR)/%.c:
	scripts/mpi-foreign.sh > /dev/null
$(B)/tests/mpi/foreign/%: $(FOREIGN_DIR)/%.c $(MPICC)
	@mkdir -p $(dir $@)
	$(MPICC) -O2 -o $@ $< -lm
MPI_EXAMPLES := $(patsubst examples/mpi/%.c,$(B)/examples/mpi/%,$(wildcard examples/mpi/*.c))
$(B)/examples/mpi/%: examples/mpi/%.c $(MPICC)
	@mkdir -p $(dir $@)
	$(MPICC) -std=c11 -O2 -Wall -Wextra -Werror -o $@ $<

# vcube-sim runs kernel/core itself, on the host, and reads file= graphs.
SIM_SRC := $(CORE_SRC) $(GRAPH_SRC) $(TOOL_COMMON)
SIM_DEPS := userspace/tools/vcube-sim.c $(SIM_SRC) $(wildcard kernel/core/*.h userspace/lib/*.h \
	userspace/tools/graph/*.h) $(TOOL_DEPS) $(LIBVCUBE_DEP)
SIM_LINK = $(CC) $(VCUBE_CFLAGS) $(CPPFLAGS) $(1) -Ikernel/core -Iuserspace/tools $(XML_CFLAGS) $(CFLAGS) $(LDFLAGS) \
	-o $@ $< $(SIM_SRC) $(LIBVCUBE) -lm $(NL_LIBS) $(JSON_LIBS) $(XML_LIBS)
$(B)/bin/vcube-sim: $(SIM_DEPS)
	@mkdir -p $(dir $@)
	$(call SIM_LINK,)

# The same, checking each re-rate against a filling of the whole network
# (tests/host/sim_times.sh).
$(B)/tests/vcube-sim-check: $(SIM_DEPS)
	@mkdir -p $(dir $@)
	$(call SIM_LINK,-DVC_RERATE_CHECK)

$(B)/bin/vcube-bench: userspace/tools/vcube-bench.c $(wildcard userspace/tools/vcube-bench/*.[ch]) $(TOOL_DEPS) $(LIBVCUBE_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) $(CPPFLAGS) -Iuserspace/tools $(CFLAGS) $(LDFLAGS) -o $@ $< $(wildcard userspace/tools/vcube-bench/*.c) $(TOOL_COMMON) $(LIBVCUBE) -lm $(NL_LIBS) $(JSON_LIBS)

# The same program over MPI, which vcube-bench COMMAND --transport mpi runs from
# ../libexec/vcube beside it (so that runs on the device load no MPI):
# Debian's Open MPI compiler wrapper, and the transport in bench/mpi/.
$(BENCH_MPI): userspace/tools/vcube-bench.c $(wildcard userspace/tools/vcube-bench/*.[ch] userspace/tools/vcube-bench/mpi/*.c) $(TOOL_DEPS) $(LIBVCUBE_DEP)
	@mkdir -p $(dir $@)
	OMPI_CC=$(CC) mpicc $(VCUBE_CFLAGS) $(CPPFLAGS) -Iuserspace/tools $(CFLAGS) $(LDFLAGS) -o $@ $< $(wildcard userspace/tools/vcube-bench/*.c userspace/tools/vcube-bench/mpi/*.c) $(TOOL_COMMON) $(LIBVCUBE) -lm $(NL_LIBS) $(JSON_LIBS)

# vcubectl net export routes with kernel/core's topologies, linked in as
# vcube-sim links them (the host's allocator hooks are engine.c's).
CTL_CORE := $(CORE_SRC)
$(B)/bin/vcubectl: userspace/tools/vcubectl.c $(wildcard userspace/tools/vcubectl/*.[ch]) $(GRAPH_SRC) $(wildcard userspace/tools/graph/*.h) \
		$(CTL_CORE) $(wildcard kernel/core/*.h) $(TOOL_DEPS) $(LIBVCUBE_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) $(CPPFLAGS) -Ikernel/core -Iuserspace/tools $(XML_CFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(wildcard userspace/tools/vcubectl/*.c) $(GRAPH_SRC) $(CTL_CORE) $(TOOL_COMMON) $(LIBVCUBE) -lm $(NL_LIBS) $(JSON_LIBS) $(XML_LIBS)

$(B)/bin/vcube-run: userspace/tools/vcube-run.c $(wildcard userspace/tools/vcube-run/*.[ch]) $(TOOL_DEPS) $(LIBVCUBE_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) $(CPPFLAGS) -Iuserspace/tools $(CFLAGS) $(LDFLAGS) -o $@ $< $(wildcard userspace/tools/vcube-run/*.c) $(TOOL_COMMON) $(LIBVCUBE) -lm $(NL_LIBS) $(JSON_LIBS)

$(B)/bin/%: userspace/tools/%.c $(TOOL_DEPS) $(LIBVCUBE_DEP)
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) $(CPPFLAGS) -Iuserspace/tools $(CFLAGS) $(LDFLAGS) -o $@ $< $(TOOL_COMMON) $(LIBVCUBE) -lm $(NL_LIBS) $(JSON_LIBS)

# Host tests link kernel/core and the library built with sanitizers, each
# object compiled once for all of them (build/asan/).
ASAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -pthread
ASAN_OBJ := $(patsubst %.c,$(B)/asan/%.o,$(CORE_SRC) $(LIB_SRC))
ASAN_HDR := $(wildcard kernel/core/*.h userspace/lib/include/*.h userspace/lib/*.h \
	userspace/lib/plan/*.h) include/uapi/linux/vcube.h
# kept between runs (make would delete them as intermediate files)
.SECONDARY: $(ASAN_OBJ)
$(B)/asan/%.o: %.c $(ASAN_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) -Ikernel/core $(CFLAGS) $(ASAN_FLAGS) -c -o $@ $<

$(B)/tests/%: tests/host/%.c $(ASAN_OBJ) $(ASAN_HDR) $(wildcard tests/host/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) -Ikernel/core $(CFLAGS) $(ASAN_FLAGS) -o $@ $< $(ASAN_OBJ) -lm $(NL_LIBS)

# vcube-bench's writer, on its own: no library, no kernel code (json-c).
$(B)/tests/bench_out_test: tests/host/bench_out_test.c userspace/tools/vcube-bench/out.c userspace/tools/vcube-bench/bench.h \
		userspace/tools/common/json_print.c userspace/tools/common/json_print.h
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) -Iuserspace/tools -DVCUBE_TOP='"$(CURDIR)"' $(CFLAGS) \
		-fsanitize=address,undefined -fno-sanitize-recover=all -o $@ $< userspace/tools/vcube-bench/out.c \
		userspace/tools/common/json_print.c $(JSON_LIBS)

# vcubectl's links command and its picture (nl.c, svg.c) on link dumps
# made by kernel/core, the test standing in for libvcube's netlink calls
# (so libvcube's nl.o, which defines them, is never linked).
VCUBECTL_LINKS_SRC := $(addprefix userspace/tools/vcubectl/,nl.c svg.c util.c print.c)
$(B)/tests/vcubectl_svg_test: tests/host/vcubectl_svg_test.c $(VCUBECTL_LINKS_SRC) \
		$(wildcard userspace/tools/vcubectl/*.h) $(TOOL_DEPS) $(ASAN_OBJ) $(ASAN_HDR) \
		$(wildcard tests/host/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) -Ikernel/core -Iuserspace/tools $(XML_CFLAGS) $(CFLAGS) $(ASAN_FLAGS) -o $@ $< \
		$(VCUBECTL_LINKS_SRC) $(TOOL_COMMON) $(filter-out $(B)/asan/userspace/lib/nl.o,$(ASAN_OBJ)) \
		-lm $(JSON_LIBS) $(XML_LIBS)

# The reader, and kernel/core's graph on what it reads (examples/*.anynet).
$(B)/tests/graph_test: tests/host/graph_test.c $(GRAPH_SRC) $(wildcard userspace/tools/graph/*.h) tests/host/check.h \
		kernel/core/graph.c kernel/core/graph.h kernel/core/env.h kernel/core/topology.h
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) -Iuserspace/tools $(XML_CFLAGS) -DVCUBE_TOP='"$(CURDIR)"' $(CFLAGS) \
		-fsanitize=address,undefined -fno-sanitize-recover=all -o $@ $< $(GRAPH_SRC) \
		kernel/core/graph.c $(XML_LIBS) -lm

# The tools' printer of text and JSON, on its own.
$(B)/tests/json_print_test: tests/host/json_print_test.c userspace/tools/common/json_print.c \
		userspace/tools/common/json_print.h
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) -Iuserspace/tools $(CFLAGS) -fsanitize=address,undefined \
		-fno-sanitize-recover=all -o $@ $< userspace/tools/common/json_print.c $(JSON_LIBS)

$(B)/tests/vm/%: tests/vm/%.c $(B)/lib/libvcube.a $(wildcard userspace/lib/*.h tests/vm/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) $(CFLAGS) -o $@ $< $(B)/lib/libvcube.a -lm $(NL_LIBS)

# The stress layer's programs speak the uapi only (raw ioctls, garbage too).
$(B)/tests/stress/%: tests/stress/%.c include/uapi/linux/vcube.h
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) $(CFLAGS) -o $@ $< -lpthread

$(B)/bench/%: bench/%.c $(B)/lib/libvcube.a
	@mkdir -p $(dir $@)
	$(CC) $(VCUBE_CFLAGS) $(CFLAGS) -o $@ $< $(B)/lib/libvcube.a -lm $(NL_LIBS)

# The README's example programs, built from the tree as a user's would be
# (only the public header; tests/host/install.sh builds them installed).
$(B)/examples/%: examples/%.c $(B)/lib/libvcube.a userspace/lib/include/vcube.h
	@mkdir -p $(dir $@)
	$(CC) -std=c11 -Wall -Wextra -Werror -Iinclude/uapi -Iuserspace/lib/include $(CFLAGS) \
		-o $@ $< $(B)/lib/libvcube.a -lm $(NL_LIBS)

tests: $(HOST_TESTS) $(VM_TESTS) $(STRESS) $(BENCH) $(EXAMPLES) $(B)/tests/vcube-sim-check $(MPI_TESTS) $(MPI_FOREIGN) $(MPI_EXAMPLES)

# The validation reports, written to docs/ (about 35 minutes: the Delta tables
# simulate meshes of up to 512 nodes for up to 511 steps, 125 times; the
# iPSC/860, AP1000 and CM-5 sections are measured through the module in the VM),
# then the chosen constants' ablations that vcube-sim runs (scripts/ablate.py,
# about 8 minutes more on two cores), whose records the scorecard reads and whose
# report is build/score/ablate.md.
validate: deps all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@mkdir -p $(B)/score $(B)/vm/out/score
	@rm -f $(B)/score/delta.tsv $(B)/score/ablate.tsv $(B)/vm/out/score/validate-*.tsv
	@VCUBE_VM_TIMEOUT=$${VCUBE_VM_TIMEOUT:-7200} scripts/vm-run.sh --kver $(KVER) --no-insmod -- \
		'VCUBE_SCORE=$$VCUBE_OUT/score/validate-ipsc860.tsv scripts/validate-ipsc860.sh > $$VCUBE_OUT/validation-ipsc860.md && VCUBE_SCORE=$$VCUBE_OUT/score/validate-switching.tsv scripts/validate-switching.sh > $$VCUBE_OUT/validation-switching.md'
	@cp $(B)/vm/out/validation-ipsc860.md docs/validation-ipsc860.md
	@echo "wrote docs/validation-ipsc860.md"
	@{ printf '# Validation\n\nGenerated by `make validate`; nothing here is typed by hand.\n'; \
	   printf 'The iPSC/860 profiles have their own report, measured through the module in\n'; \
	   printf 'the VM: [validation-ipsc860.md](validation-ipsc860.md).\n'; \
	   VCUBE_SCORE=$(B)/score/delta.tsv scripts/validate-delta.py && \
	   cat $(B)/vm/out/validation-switching.md; } > docs/validation.md.tmp
	@mv docs/validation.md.tmp docs/validation.md
	@echo "wrote docs/validation.md"
	@VCUBE_SCORE=$(B)/score/ablate.tsv scripts/ablate.py > $(B)/score/ablate.md
	@echo "wrote $(B)/score/ablate.md"

# docs/reproductions.md and its figures: the papers' figures and tables that
# vcube reproduces, measured in the VM (hours: Bokhari's noisy winners run
# their best candidates at the paper's repetitions, docs/scoring.md;
# VCUBE_VERDICT_REPS=N caps them, leaving what N cannot decide undecided).
REPRO_SVG := bokhari-d5.svg bokhari-regions.svg pairwise-d5.svg seidel-barriers.svg \
	seidel-shift.svg bokhari-envelope.svg bokhari-fig13.svg bokhari-regions-noise.svg
reproduce: deps all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@mkdir -p $(B)/vm/out/score
	@rm -f $(B)/vm/out/score/reproduce.tsv
	@VCUBE_VM_TIMEOUT=$${VCUBE_VM_TIMEOUT:-43200} scripts/vm-run.sh --kver $(KVER) --no-insmod -- \
		'VCUBE_VERDICT_REPS=$(VCUBE_VERDICT_REPS) VCUBE_SCORE=$$VCUBE_OUT/score/reproduce.tsv scripts/reproduce.sh > $$VCUBE_OUT/reproductions.md'
	@cp $(B)/vm/out/reproductions.md docs/reproductions.md
	@for f in $(REPRO_SVG); do cp $(B)/vm/out/$$f docs/$$f || exit 1; done
	@echo "wrote docs/reproductions.md and $(addprefix docs/,$(REPRO_SVG))"
	@$(MAKE) --no-print-directory reproduce-cnet

# docs/control-network.md: the CM-5's control network, Ponnusamy et al.'s
# Tables 7 and 8 (about 2 minutes).
reproduce-cnet: deps all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@mkdir -p $(B)/vm/out/score
	@rm -f $(B)/vm/out/score/cnet.tsv
	@scripts/vm-run.sh --kver $(KVER) --no-insmod -- \
		'VCUBE_SCORE=$$VCUBE_OUT/score/cnet.tsv scripts/reproduce-cnet.sh > $$VCUBE_OUT/control-network.md'
	@cp $(B)/vm/out/control-network.md docs/control-network.md
	@echo "wrote docs/control-network.md"

# docs/scorecard.md and .json: every paper's figures and tables beside
# vcube's, from the records make validate and make reproduce leave (hours:
# both run first); exits non-zero when a target of
# data/score-thresholds.tsv is missed. make score-report scores the records
# already there; make score-smoke is make check's few cells per paper.
# One after the other, also under make -j: each runs the VM, and two VMs
# must not run at once.
score:
	@$(MAKE) --no-print-directory validate
	@$(MAKE) --no-print-directory reproduce
	@$(MAKE) --no-print-directory score-report

# The commit the records came from: dirty only if a file outside docs/
# (where the runs write their reports) differs from it.
score-report:
	@scripts/score.py --records $(B)/score --records $(B)/vm/out/score \
		--commit "commit $$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$$(git diff --quiet HEAD -- . ':!docs' 2>/dev/null || echo -dirty) (make score)" \
		--md docs/scorecard.md --json docs/scorecard.json; rc=$$?; \
		echo "wrote docs/scorecard.md and docs/scorecard.json"; exit $$rc

score-smoke: deps all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@scripts/vm-run.sh --kver $(KVER) --no-insmod -- tests/vm/run.sh score
	@scripts/score-smoke.sh; rc=$$?; echo "wrote build/scorecard-smoke.md"; exit $$rc

# The README's vcube-bench, vcube-run and insmod lines run as written in the
# VM (tests/vm/readme_bench.sh; hours under TCG: its sweeps are the papers'
# whole ones). make check runs the README's other commands.
readme-commands: deps all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@VCUBE_VM_TIMEOUT=$${VCUBE_VM_TIMEOUT:-14400} scripts/vm-run.sh --kver $(KVER) --no-insmod -- \
		tests/vm/run.sh readme_bench

# tests/data/golden: the outputs tests/vm/golden.sh compares bit for bit;
# regenerate only for a deliberate change of the model (about 2 minutes).
golden-update: deps all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@scripts/vm-run.sh --kver $(KVER) --no-insmod -- 'VCUBE_GOLDEN_UPDATE=1 tests/vm/run.sh golden'
	@mkdir -p tests/data/golden && rm -f tests/data/golden/*.csv && \
		cp $(B)/vm/out/golden/*.csv tests/data/golden/
	@echo "wrote tests/data/golden/"

# Benchmarks print figures; they are never part of make check.
bench-engine: deps all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@scripts/vm-run.sh --kver $(KVER) --no-insmod -- \
		'BENCH_MD=$$VCUBE_OUT/bench-engine.md scripts/bench-engine.sh'
	@scripts/readme-table.sh bench-engine $(B)/vm/out/bench-engine.md && \
		echo "wrote README.md's table of make bench-engine"

# Everything issue 17 measures, side by side, into docs/performance.md:
# the module in the guest (ping-pong against pipes; the pairwise exchange
# on hypercubes of BENCH_DIMS, beside SimGrid's SMPI and Open MPI in the
# same guest) and the engine alone on the host (every profile, BENCH_NODES).
# An hour or more under TCG; never part of make check.
BENCH_DIMS ?= 5 7 9 10
BENCH_NODES ?= 32 128 512 1024 4096
bench: deps all tests $(B)/bench/a2a_smpi $(B)/bench/a2a_ompi
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@rm -f $(B)/vm/out/bench.md
	@VCUBE_VM_TIMEOUT=$${VCUBE_VM_TIMEOUT:-14400} scripts/vm-run.sh --kver $(KVER) --no-insmod -- \
		'BENCH_MD=$$VCUBE_OUT/bench.md DIMS="$(BENCH_DIMS)" PEERS=1 scripts/bench-engine.sh'
	@NODES="$(BENCH_NODES)" scripts/bench-sim.sh | tee $(B)/bench-sim.md
	@scripts/bench-report.py --guest $(B)/vm/out/bench.md --host $(B)/bench-sim.md \
		--kver $(KVER) --mem "$${VCUBE_VM_MEM:-2048}" --targets $(B)/bench-targets.md \
		> $(B)/performance.md && mv $(B)/performance.md docs/performance.md && \
		scripts/readme-table.sh bench $(B)/bench-targets.md && \
		echo "wrote docs/performance.md and README.md's lines of make bench"
	@$(MAKE) --no-print-directory bench-topo

# Today's networks at scale on the host engine (scripts/bench-topo.sh):
# each new topology at 4096 nodes and a 16512-node dragonfly, cost per
# message and events per second, into docs/scale.md. Minutes; make bench
# runs it too.
bench-topo: all
	@{ echo '# Today'"'"'s networks at scale (generated)'; echo; \
	   echo 'Written by `make bench-topo` (scripts/bench-topo.sh) on $(shell date -u +%F); the machine is shared and noisy: figures, not targets.'; echo; \
	   scripts/bench-topo.sh; } > $(B)/scale.md && mv $(B)/scale.md docs/scale.md && echo "wrote docs/scale.md"

# MPICH's own test suite (scripts/mpi-conformance.py; MPICH 4.0.2's test/mpi
# from Debian's archive, scripts/mpich-tests.sh): built with vcube-mpicc and
# with Open MPI's mpicc, run under Open MPI here and under vcube-mpi in the
# guest on the iPSC/860 hypercube and the CM-5 fat tree (128 nodes each);
# docs/mpi-conformance.md. An hour or more under TCG.
mpi-conformance: deps all
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@scripts/mpi-conformance.py list && scripts/mpi-conformance.py build && \
		scripts/mpi-conformance.py ompi
	@rm -f $(B)/vm/out/results-vcube-*.tsv
	@VCUBE_VM_TIMEOUT=$${VCUBE_VM_TIMEOUT:-21600} scripts/vm-run.sh --kver $(KVER) --no-insmod -- \
		'scripts/mpi-conformance.py vcube hypercube topology=hypercube dim=7 profile=ipsc860 && scripts/mpi-conformance.py vcube fattree topology=fattree nodes=128 profile=cm5'
	@cp $(B)/vm/out/results-vcube-*.tsv $(B)/mpi-conformance/
	@scripts/mpi-conformance.py report > docs/mpi-conformance.md
	@echo "wrote docs/mpi-conformance.md"

# The README's MPI example, measured: the program's MPI_Alltoall beside
# vcube-bench per algorithm in the guest, then the same source built with
# Open MPI and run on this host (real time). About 5 minutes.
mpi-example: deps all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@scripts/vm-run.sh --kver $(KVER) --no-insmod -- 'MD=$$VCUBE_OUT/mpi-example.md scripts/mpi-example.sh'
	@mpicc -O2 -o $(B)/examples/mpi/alltoall_ompi examples/mpi/alltoall.c -lm
	@t=$$(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader \
		mpirun --oversubscribe -n 32 $(B)/examples/mpi/alltoall_ompi 4096 | \
		sed -n 's/.*bytes: \([0-9]*\) ns, data ok$$/\1/p'); \
	test -n "$$t" && { cat $(B)/vm/out/mpi-example.md; echo; \
		printf 'The same source built with Open MPI'"'"'s mpicc and run by `mpirun -n 32` on the %s-processor host that made this table (oversubscribed, shared memory, %s): %.1f us of real time, Open MPI choosing its own algorithm.\n' \
		"$$(nproc)" "$$(date +%F)" "$$(echo "$$t / 1000" | bc -l)"; } > $(B)/mpi-example.md && \
	scripts/readme-table.sh mpi-example $(B)/mpi-example.md && echo "wrote README.md's MPI example table"

# docs/timelines.md and its four time-space diagrams (vcube-sim --timeline;
# scripts/timelines.sh; seconds).
timelines: all
	@scripts/timelines.sh

# docs/perfetto-naive.svg: the README's make vm command (naive on d = 5,
# 4 KB, --mark, vcubectl trace --format perfetto), drawn from the file it
# writes by scripts/perfetto-picture.py (about a minute).
TRACE_PICTURE_CMD := vcube-run -n 32 vcube-bench exchange -q --algo naive --sizes 4096 --mark && vcubectl trace --format perfetto -o $$VCUBE_OUT/t.json
trace-picture: userspace tests
	@$(MAKE) --no-print-directory vm MODPARAMS='topology=hypercube dim=5' CMD='$(TRACE_PICTURE_CMD)' > /dev/null
	@scripts/perfetto-picture.py $(B)/vm/out/t.json docs/perfetto-naive.svg

# docs/cluster.md: the plans and Open MPI's MPI_Alltoall over Open MPI on
# this host, 2 to 32 ranks, beside vcube-sim on a profile fitted to a
# ping-pong (scripts/cluster.sh; under a minute).
cluster: deps all
	@scripts/cluster.sh

# docs/crosscheck.md: the same plain MPI all-to-all, allreduce and shift
# (bench/mpi/crosscheck.c) under SimGrid's SMPI on platforms of a 3-D torus,
# a fat tree and a dragonfly, and in vcube-sim on the same networks with the
# same link constants, every case's ratio and why the ones that differ do
# (scripts/crosscheck.py, the platforms vcubectl net export --simgrid's;
# about a minute, never part of make check).
crosscheck: deps $(B)/bin/vcube-sim $(B)/bin/vcubectl $(B)/bench/crosscheck_smpi
	@/usr/bin/python3 scripts/crosscheck.py --sim $(B)/bin/vcube-sim --ctl $(B)/bin/vcubectl \
		--prog $(B)/bench/crosscheck_smpi --work $(B)/crosscheck --out docs/crosscheck.md
$(B)/bench/crosscheck_smpi: bench/mpi/crosscheck.c
	@mkdir -p $(dir $@)
	smpicc -O2 -o $@ $<

# The same MPI program built for SMPI and for Open MPI (make bench only).
$(B)/bench/a2a_smpi: bench/mpi/a2a_mpi.c
	@mkdir -p $(dir $@)
	smpicc -O2 -o $@ $<
$(B)/bench/a2a_ompi: bench/mpi/a2a_mpi.c
	@mkdir -p $(dir $@)
	mpicc -O2 -Wall -Wextra -Werror -o $@ $<

# The engine alone on the host (vcube-sim): NODES=, REPS=, BASE=another
# vcube-sim to compare with (scripts/bench-sim.sh).
bench-sim: deps userspace
	@scripts/bench-sim.sh

# ---- installation ---------------------------------------------------------
PREFIX ?= /usr/local
LIBDIR ?= $(PREFIX)/lib
# install-userspace: what the Debian packages carry (debian/rules), without
# the module (vcube-dkms builds it on the user's machine).
install: all install-userspace
install-userspace: userspace
	install -D -m 0644 $(B)/lib/libvcube.a $(DESTDIR)$(LIBDIR)/libvcube.a
	install -D -m 0644 $(SO) $(DESTDIR)$(LIBDIR)/$(notdir $(SO))
	ln -sf $(notdir $(SO)) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libvcube.so
	install -D -m 0644 userspace/lib/include/vcube.h $(DESTDIR)$(PREFIX)/include/vcube.h
	install -D -m 0644 include/uapi/linux/vcube.h $(DESTDIR)$(PREFIX)/include/linux/vcube.h
	install -d $(DESTDIR)$(LIBDIR)/pkgconfig $(DESTDIR)$(PREFIX)/bin \
		$(DESTDIR)$(PREFIX)/share/man/man1 $(DESTDIR)$(PREFIX)/share/man/man3 \
		$(DESTDIR)$(PREFIX)/share/man/man4 $(DESTDIR)$(PREFIX)/share/man/man8
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBDIR@|$(LIBDIR)|' -e 's|@VERSION@|$(VERSION)|' \
		userspace/lib/libvcube.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/libvcube.pc
	install -m 0755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -D -m 0755 $(BENCH_MPI) $(DESTDIR)$(PREFIX)/libexec/vcube/vcube-bench-mpi
	@# vcube-mpi: the library, its mpi.h apart from any other MPI's, and
	@# the wrapper and pkg-config file pointing at where they now are
	install -D -m 0644 $(MPI_LIB) $(DESTDIR)$(LIBDIR)/libvcube-mpi.a
	install -D -m 0644 userspace/mpi/include/mpi.h $(DESTDIR)$(PREFIX)/include/vcube-mpi/mpi.h
	install -D -m 0644 userspace/mpi/include/pmpi.h $(DESTDIR)$(PREFIX)/include/vcube-mpi/pmpi.h
	sed -e 's|@INCDIR@|$(PREFIX)/include/vcube-mpi|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@LIBS@|$(NL_LIBS) -lm|' -e 's|@VERSION@|$(VERSION)|' \
		userspace/mpi/vcube-mpicc.in > $(DESTDIR)$(PREFIX)/bin/vcube-mpicc
	chmod 0755 $(DESTDIR)$(PREFIX)/bin/vcube-mpicc
	sed -e 's|@INCDIR@|$(PREFIX)/include/vcube-mpi|' -e 's|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@LIBS@|$(NL_LIBS) -lm|' -e 's|@VERSION@|$(VERSION)|' \
		userspace/mpi/vcube-mpi.pc.in > $(DESTDIR)$(LIBDIR)/pkgconfig/vcube-mpi.pc
	install -m 0644 docs/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -m 0644 docs/man/*.3 $(DESTDIR)$(PREFIX)/share/man/man3/
	install -m 0644 docs/man/*.4 $(DESTDIR)$(PREFIX)/share/man/man4/
	install -m 0644 docs/man/*.8 $(DESTDIR)$(PREFIX)/share/man/man8/
	@# the dynamic linker finds a library installed in place at once
	@if [ -z "$(DESTDIR)" ] && [ "$$(id -u)" = 0 ]; then ldconfig; fi

# The module's sources as vcube-dkms carries them, in
# $(DESTDIR)/usr/src/vcube-$(VERSION) with dkms.conf (make dkms, debian/rules).
DKMS_SRC := $(filter-out %_test.c,$(MOD_SRC))
install-dkms:
	@for f in $(DKMS_SRC); do \
		install -D -m 0644 $$f $(DESTDIR)/usr/src/vcube-$(VERSION)/$$f || exit 1; done
	sed 's/#MODULE_VERSION#/$(VERSION)/' dkms.conf > $(DESTDIR)/usr/src/vcube-$(VERSION)/dkms.conf

# The module built by DKMS for every installed Debian kernel, all of it in
# build/dkms (scripts/dkms.sh); make check's VM tests load these.
dkms: deps
	@scripts/dkms.sh

# The Debian packages vcube-dkms, libvcube0, libvcube-dev and vcube-tools in
# build/deb, built by dpkg-buildpackage from this tree's files, then lintian
# (scripts/deb.sh).
deb: deps
	@scripts/deb.sh

# ---- environment ----------------------------------------------------------
deps:
	@scripts/deps.sh

# Boot a stock Debian kernel of line KVER in QEMU, insmod the module built
# for it with MODPARAMS, run CMD in this directory; exit with CMD's status.
vm: userspace tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	@scripts/vm-run.sh --kver $(KVER) --modparams "$$VCUBE_MODPARAMS" -- "$$VCUBE_CMD"

# Bokhari's six implementations on a 32-node iPSC/860, blocks 1 B .. 4 KB:
# the table, the plot in build/demo/bokhari-d5.svg, and the links the sweep
# used most, over generic netlink (about 3 minutes).
DEMO_ALGOS := linear,stable,pairwise_F,pairwise_U,standard_F,standard_U
# when make read this file, before make deps: the demo's start, for its time
DEMO_T0 := $(shell date +%s)
demo: deps
	@$(MAKE) --no-print-directory vm KVER=6.12 \
		MODPARAMS='topology=hypercube dim=5 profile=ipsc860' \
		CMD='vcubectl show && vcube-run -n 32 vcube-bench exchange -q --algo $(DEMO_ALGOS) --sizes 1..4096 --reps 1 --title "Complete exchange on a 32-node iPSC/860 (vcube)" --plot $$VCUBE_OUT/bokhari-d5.svg && echo && echo "The busiest links of the sweep (vcubectl links --sort busy --top 10):" && vcubectl links --sort busy --top 10'
	@mkdir -p $(B)/demo && cp $(B)/vm/out/bokhari-d5.svg $(B)/demo/
	@echo "wrote $(B)/demo/bokhari-d5.svg"
	@scripts/demo-time.sh $(DEMO_T0)

# ---- tests ----------------------------------------------------------------
kunit:
	@scripts/kunit.sh

# The build uses every processor unless the caller chose with -j.
CHECK_JOBS ?= $(shell nproc)
check: deps
	@$(MAKE) --no-print-directory -j$(CHECK_JOBS) all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir 6.12)
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir 6.1)
	@scripts/check.sh

# The long stress suite (tests/stress/stress.sh with VCUBE_STRESS=long) on
# KVER's kernel: 1,000,000 random calls from 64 processes, 100 kill -9s
# mid-exchange, 100 module cycles, the memory, lock-hold and signal cases.
stress: deps all tests
	@$(MAKE) --no-print-directory module KDIR=$$(scripts/vm-run.sh --kdir $(KVER))
	VCUBE_VM_TIMEOUT=$${VCUBE_VM_TIMEOUT:-14400} scripts/vm-run.sh --kver $(KVER) --no-insmod -- \
		VCUBE_STRESS=long tests/vm/run.sh stress

# The VM tests and the stress suite on a debug kernel (KASAN, lockdep,
# kmemleak, KFENCE, UBSAN, lockup and hung-task detectors), built from
# linux-source-6.12 into ~/.cache/vcube the first time (scripts/debug-kernel.sh).
check-debug: deps all tests
	@scripts/check-debug.sh

clean:
	rm -rf $(B) vcube.ko
