# The user's front door. Every target installs missing Debian packages once
# (scripts/bootstrap.sh, remembered by a stamp file), then drives CMake.
#
#   make sim SCENARIO=conv2d [SEED=n] [TRACE=1]   run one scenario on the RTL
#   make test                                     build + the CTest suite
#   make python                                   the Python module, importable as `import cosim`
#   make suite [INPUTS=n]                         the MLPerf Tiny models on every accelerator, one table
#   make bench | lint | regress | wave | wave-selftest | coverage
#   make bench-compare BASE=<rev> [RUNS=n]          speed against an older commit
#   make new-dut NAME=x [STYLE=vitis]             a new accelerator from templates/dut (or templates/vitis)
#   make install PREFIX=dir                       cosim, Python module, headers, CMake package (plugins)
#   COMPILER=clang|gcc (or CXX=g++), ARCH=auto|portable|x86-64-v3|native: at a build folder's first configure

BUILD     ?= build
SCENARIO  ?= conv2d
SEED      ?=
TRACE     ?=
JOBS      ?= $(shell nproc)
CTEST_ARGS ?=
SEEDS     ?= 1
FILTER    ?=
SLURM     ?=

STAMP := .bootstrap-stamp

# ccache: paths relative to the checkout, so another clone (CI) hits the cache.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
COSIM := $(BUILD)/tb/cosim/cosim

PREFIX    ?= /usr/local

.PHONY: install all build configure cosim test referee python sim suite bench bench-compare new-dut lint regress slurm-selftest wave wave-selftest coverage sanitize mutate fuzz fuzz-tflite ci clean help docs-figures

all: build

help:
	@sed -n '1,10p' Makefile

$(STAMP): scripts/bootstrap.sh
	@bash scripts/bootstrap.sh
	@touch $@

# The compiler (issue 35): clang when installed (CMakeLists.txt picks it),
# which simulates faster; COMPILER=gcc or CXX=g++ on the command line picks
# g++ (COMPILER=clang insists on clang). ARCH sets COSIM_ARCH
# (cmake/cosim_arch.cmake). Both apply when a build folder is first
# configured; asking for another compiler than $(BUILD)'s stops with a hint.
COMPILER  ?=
ARCH      ?=
ifeq ($(COMPILER),gcc)
  COMPILER_ARGS := -DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++
else ifeq ($(COMPILER),clang)
  COMPILER_ARGS := -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++
else ifneq ($(COMPILER),)
  $(error COMPILER=$(COMPILER): expected clang or gcc)
else ifeq ($(origin CXX),command line)
  COMPILER_ARGS := -DCMAKE_CXX_COMPILER=$(CXX) \
    -DCMAKE_C_COMPILER=$(if $(filter command line,$(origin CC)),$(CC),$(if $(findstring clang,$(CXX)),clang,gcc))
else
  COMPILER_ARGS :=
endif

# A folder already configured keeps its compiler (CMake would delete its
# cache to switch): asking for another one stops with a hint instead.
define check_compiler
	@want='$(patsubst -DCMAKE_CXX_COMPILER=%,%,$(filter -DCMAKE_CXX_COMPILER=%,$(COMPILER_ARGS)))'; \
	if [ -n "$$want" ] && [ -f $(BUILD)/CMakeCache.txt ]; then \
	  have=$$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' $(BUILD)/CMakeCache.txt); \
	  if [ "$$(readlink -f "$$(command -v $$want || echo $$want)")" != "$$(readlink -f "$$have")" ]; then \
	    echo "make: $(BUILD)/ is configured with $$have, not $$want: use another folder (BUILD=build-$(or $(COMPILER),other)) or make clean" >&2; \
	    exit 2; \
	  fi; \
	fi
endef

$(BUILD)/build.ninja: $(STAMP) CMakeLists.txt
	$(check_compiler)
	@if [ -f $(BUILD)/CMakeCache.txt ]; then set -x; cmake -S . -B $(BUILD) $(if $(ARCH),-DCOSIM_ARCH=$(ARCH)); \
	else set -x; cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release $(COMPILER_ARGS) $(if $(ARCH),-DCOSIM_ARCH=$(ARCH)); fi

configure: $(BUILD)/build.ninja
	$(check_compiler)

build: configure
	cmake --build $(BUILD) -j $(JOBS)

test: build referee python
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure --timeout 600 -LE '^regress$$' $(CTEST_ARGS) \
	  || { python3 scripts/ctest-failures $(BUILD); exit 8; }

# The TFLite runtime (WebAssembly, from npm) that referees the golden model.
# Locally its tests skip with a message when it cannot be installed; in CI
# (CI=true) a failed install fails the build, and the tests run with
# COSIM_REQUIRE_REFEREE=1 so that they cannot skip.
referee: $(STAMP)
	@bash tests/tflite/referee/install.sh || { \
	  if [ "$${CI:-}" = true ]; then echo "referee: install failed (required in CI)" >&2; exit 1; fi; \
	  echo "referee: not installed; the TFLite referee tests will skip"; }

# The Python module (build/python/cosim.*.so): a cosim.pth in the user
# site-packages of the python3 on PATH names that folder, so `import cosim`
# works from anywhere (PYTHONPATH=build/python does it for one shell).
python: build
	@python3 scripts/python-path $(BUILD)/python

# An installation accelerators in their own repositories build against
# (docs/adding-an-accelerator.md, "Your accelerator in your own repository").
install: build python
	cmake --install $(BUILD) --prefix $(PREFIX)

# Only what a simulation needs: the cosim binary and what it links.
cosim: configure
	cmake --build $(BUILD) -j $(JOBS) --target cosim

sim: cosim
	$(COSIM) run scenarios/$(SCENARIO).yaml --out out/$(SCENARIO) \
	  $(if $(SEED),--seed $(SEED)) $(if $(TRACE),--wave out/$(SCENARIO)/wave.fst)

# The measured figures in docs/ (between <!-- figures:begin NAME --> markers),
# regenerated in place from runs of this tree's cosim (scripts/docs-figures;
# run folders in $(BUILD)/docs-figures). CTest docs_figures checks them.
docs-figures: cosim
	python3 scripts/docs-figures --cosim $(COSIM) --build $(BUILD)

bench: build
	@for b in $(BUILD)/bench/*/bench_*; do \
	  [ -x "$$b" ] || continue; echo "== $$b"; "$$b" || exit 1; done

# make bench-compare BASE=<rev> [RUNS=n] [INSTRUCTIONS=1]: the VTA simulation
# speed of this tree against BASE built in build-base/, alternating runs,
# medians; INSTRUCTIONS=1 counts instructions (callgrind) instead, which a
# loaded machine does not disturb.
bench-compare:
	python3 scripts/bench-compare $(BASE) --build $(BUILD) $(if $(RUNS),--runs $(RUNS)) \
	  $(if $(INSTRUCTIONS),--instructions)

# Long sweeps: every scenario x SEEDS seeds through cosim, plus the CTest
# tests labelled regress. SLURM=1 submits the scenario sweep as a job array.
regress: build
	ctest --test-dir $(BUILD) -j $(JOBS) --output-on-failure -L '^regress$$'
	python3 scripts/regress --build $(BUILD) --seeds $(SEEDS) $(if $(FILTER),--filter '$(FILTER)') \
	  $(if $(SLURM),--slurm $(if $(filter command line environment,$(origin JOBS)),--jobs $(JOBS)),--jobs $(JOBS))

# The MLPerf Tiny suite on every accelerator (scripts/suite): one table in
# out/suite/suite.html and suite.json. INPUTS=n inputs per model (default 4).
suite: cosim
	python3 scripts/suite --cosim $(COSIM) --inputs $(or $(INPUTS),4)

slurm-selftest: build referee
	BUILD=$(BUILD) bash scripts/slurm/selftest.sh

# make wave SCENARIO=x [SEED=n FROM=c TO=c DEPTH=n AROUND=n MAXMB=n]: an FST of
# the DUT with a prepared GTKWave view; opens gtkwave when a display exists.
wave: cosim
	@bash scripts/wave.sh --cosim $(COSIM) $(SCENARIO) $(if $(SEED),--seed $(SEED)) \
	  $(if $(FROM),--wave-from $(FROM)) $(if $(TO),--wave-to $(TO)) $(if $(DEPTH),--wave-depth $(DEPTH)) \
	  $(if $(AROUND),--wave-around-mismatch $(AROUND)) $(if $(MAXMB),--wave-max-mb $(MAXMB))

# Line/toggle/branch coverage of the RTL (Verilator --coverage, lcov, genhtml)
# and functional bins against their goals; HTML in out/coverage/.
# GTKWave under Xvfb loads each DUT's prepared view of a fresh FST: every
# view signal in the dump and displayed, the window shown whole, a
# screenshot per DUT in $(BUILD)/wave-selftest/<dut>/screenshot.png.
wave-selftest: cosim
	@bash scripts/wave-selftest $(BUILD)

coverage: $(STAMP)
	@bash scripts/coverage.sh

# ASan + UBSan build of the C++ unit tests (build-asan).
sanitize: $(STAMP)
	@bash scripts/sanitize.sh

# The mutation gate: every named RTL mutant (rtl/*/mutants.yaml) compiled
# into one schemata build (build-mut), each judged by the DUT's fast tests
# with COSIM_MUTANT=<id>; fails on a survivor, a stale mutant or a timeout.
mutate: $(STAMP)
	@python3 scripts/mutate -j $(JOBS)

# libFuzzer on every parser (tests/fuzz/: npy, trace, vta_raw, scenario,
# tflite) and whole runs through cosim (runs), one after the other, each for
# FUZZ_SECONDS or SECONDS (default 600); FUZZ_TARGETS="npy trace" picks some. Build, corpus and crashes in
# build-fuzz/; one summary line per target; fails when any target crashed.
# CI: make fuzz FUZZ_SECONDS=30
FUZZ_TARGETS ?=
fuzz: $(STAMP)
	@bash scripts/fuzz.sh $(or $(FUZZ_SECONDS),$(SECONDS),600) $(FUZZ_TARGETS)

# The .tflite target alone (an alias of make fuzz FUZZ_TARGETS=tflite).
fuzz-tflite: $(STAMP)
	@bash scripts/fuzz.sh $(or $(FUZZ_SECONDS),$(SECONDS),600) tflite

# What CI runs: the test suite, the regress slices, one seed of every
# scenario, the mutation gate, the sanitizers and 30 s of libFuzzer per
# parser (.ci/run).
ci: test
	bash scripts/ci-slices $(BUILD)
	python3 scripts/regress --build $(BUILD) --seeds 1 --jobs $(JOBS) --out out/ci-regress
	python3 scripts/mutate -j $(JOBS)
	bash scripts/sanitize.sh
	bash scripts/fuzz.sh 30

# A new accelerator from templates/dut (only new folders; see docs/adding-an-accelerator.md).
new-dut:
	@test -n "$(NAME)" || { echo "usage: make new-dut NAME=<lowercase identifier>" >&2; exit 2; }
	@python3 scripts/new-dut $(if $(STYLE),--style $(STYLE)) $(NAME)

lint: $(STAMP)
	@bash scripts/lint.sh

clean:
	rm -rf $(BUILD) out
