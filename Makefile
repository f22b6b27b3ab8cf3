# laneql: `make run` and `make test` do all set-up on a fresh Debian bookworm machine (as root).
# Other entry points: setup, build, build-native, build-wasm, build-js, build-demo, demo, install,
# test-native, test-install, test-diff, test-wasm-kernels, test-asan, test-tsan, test-js, test-e2e,
# bench, difftest, fuzz, clean, build-arm64, test-arm64 (aarch64 NEON and SVE2 under qemu-user).
# One wasm flavour alone: make build-wasm WASM_FLAVOURS=simd128
SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c
.DEFAULT_GOAL := help

ROOT := $(abspath .)
BUILD := $(ROOT)/build
HWY_SRC := $(ROOT)/.deps/highway-1.2.0
JOBS ?= $(shell nproc)
# simd128-mt builds both threaded modules (simd128-mt-web, simd128-mt-node) from one compile.
WASM_FLAVOURS ?= simd128 simd128-mt scalar
# The C++ kernel tests compiled to wasm, one per wasm SIMD target, each linked in the build of a
# package flavour (WASM, with pthreads: simd128-mt; EMU128, without: scalar), so after
# build-wasm they need no compile of their own.
WASM_TEST_FLAVOURS ?= simd128-mt scalar
EMSCRIPTEN_TOOLCHAIN ?= /usr/share/emscripten/cmake/Modules/Platform/Emscripten.cmake
LANEQL := $(BUILD)/native/native-cli/laneql
WASM_DIST := $(ROOT)/bindings-js/dist/wasm
# Debian's Emscripten needs its JS optimizer's modules (acorn) from Debian's node path.
export NODE_PATH := /usr/share/nodejs
# Every compile goes through tools/compiler-cache (ccache when installed). Paths under the
# clone are hashed relative to it, so a fresh clone elsewhere on the machine hits the same cache.
COMPILER_CACHE := $(ROOT)/tools/compiler-cache
export CCACHE_BASEDIR := $(ROOT)
export CCACHE_NOHASHDIR := 1
CMAKE_COMMON := -G Ninja -DCMAKE_BUILD_TYPE=Release -DFETCHCONTENT_SOURCE_DIR_HWY=$(HWY_SRC) \
  -DFETCHCONTENT_FULLY_DISCONNECTED=ON -DCMAKE_C_COMPILER_LAUNCHER=$(COMPILER_CACHE) \
  -DCMAKE_CXX_COMPILER_LAUNCHER=$(COMPILER_CACHE)
# The wasm builds: emcc runs the wrapper around clang (a launcher around emcc would make ccache
# preprocess through the Python driver for every object).
CMAKE_WASM := -DCMAKE_C_COMPILER_LAUNCHER= -DCMAKE_CXX_COMPILER_LAUNCHER= \
  -DCMAKE_TOOLCHAIN_FILE=$(EMSCRIPTEN_TOOLCHAIN)
export EM_COMPILER_WRAPPER := $(COMPILER_CACHE)

.PHONY: help setup build build-native build-wasm build-wasm-tests build-js build-demo demo run test \
  test-native test-diff test-wasm-kernels test-asan test-tsan test-js test-e2e pack bench-wasm bench \
  difftest difftest-relational fuzz build-arm64 test-arm64 test-arm64-neon clean install test-install test-tpch \
  test-tpch-js bench-tpch bench-efficiency bench-scaling test-large-strings bench-hits-100m

help:
	@echo "make run    set up, build, and show laneql on this machine"
	@echo "make test   set up, build every target, run every test"
	@echo "also: setup build build-native build-wasm build-wasm-tests build-js build-demo"
	@echo "      test-native test-diff test-wasm-kernels test-asan test-js test-e2e clean"
	@echo "      test-tsan (ThreadSanitizer; not part of make test)"
	@echo "      difftest (random queries against DuckDB; N=1000 SEED=1 ROWS=100000)"
	@echo "      difftest-relational (random multi-table queries against DuckDB; N=1000 SEED=1)"
	@echo "      test-tpch (TPC-H's 22 queries against DuckDB at SF 0.01 and 0.1, TPCH_SFS=; in make test)"
	@echo "      test-tpch-js (the same through the npm package on every Node flavour, TPCH_JS_SFS=; in make test)"
	@echo "      fuzz (libFuzzer targets, FUZZ_SECONDS each, default 60; not part of make test)"
	@echo "      build-arm64 test-arm64 (aarch64 cross build; tests under qemu: NEON, then SVE2)"
	@echo "      test-arm64-neon (the NEON run alone, SVE targets not compiled)"
	@echo "      pack (the npm package as a .tgz, with its wasm sizes)"
	@echo "      install (laneql, liblaneql, headers, find_package files into PREFIX=/usr/local)"
	@echo "      test-install (install into a temporary prefix and use it with the project hidden)"
	@echo "      bench-wasm (ClickBench in Node: laneql-wasm vs duckdb-wasm vs native; BENCH_ROWS=)"
	@echo "      bench (laneql vs DuckDB, chDB, Polars and duckdb-wasm; PEER_ROWS=, PEER_ARGS=)"
	@echo "      bench-tpch (TPC-H: laneql vs DuckDB, chDB, Polars, and the wasm pair; TPCH_BENCH_SF=, TPCH_BENCH_ARGS=)"
	@echo "      bench-planning (count(*) end to end, parse + bind, EXPLAIN of a join; PLANNING_ARGS=)"
	@echo "      bench-functions (each function over FUNCTION_ROWS rows, laneql vs DuckDB; FUNCTION_ARGS=)"
	@echo "      bench-sorted (filters and joins over a table in timestamp order, laneql vs DuckDB)"
	@echo "      bench-efficiency (CPU time per query at 1, 4, 16, 64 threads; EFFICIENCY_ROWS=, EFFICIENCY_SF=)"
	@echo "      bench-scaling (speed-up at 1, 2, 4, 8, 16 threads; SCALING_ROWS=, SCALING_SF=, SCALING_NAME=)"
	@echo "      test-large-strings (a string column of over 2 GiB end to end: about 17 GB of memory, 4-5 minutes)"
	@echo "      bench-hits-100m (ClickBench's 43 queries on 100 M generated rows, a 61 GB file; HITS_100M=)"
	@echo "make demo   build the web demo and serve it on 127.0.0.1 (cross-origin isolated; PORT=)"

setup:
	@bash tools/setup/setup.sh

build: build-native build-wasm build-js build-demo

build-native: setup
	@echo "==> build: native (Highway dynamic dispatch)"
	cmake -S . -B $(BUILD)/native $(CMAKE_COMMON) >/dev/null
	cmake --build $(BUILD)/native -j $(JOBS)

build-wasm: setup
	@for f in $(WASM_FLAVOURS); do \
	  echo "==> build: wasm flavour $$f"; \
	  cmake -S . -B $(BUILD)/wasm-$$f $(CMAKE_COMMON) $(CMAKE_WASM) \
	    -DLANEQL_WASM_FLAVOUR=$$f >/dev/null; \
	  cmake --build $(BUILD)/wasm-$$f -j $(JOBS); \
	  for glue in $(BUILD)/wasm-$$f/out/laneql-*.js; do \
	    m=$$(basename $$glue .js); m=$${m#laneql-}; \
	    case $$m in *.worker) continue;; esac; \
	    mkdir -p $(WASM_DIST)/$$m; \
	    cp $(BUILD)/wasm-$$f/out/laneql-$$m.* $(WASM_DIST)/$$m/; \
	  done; \
	done
	@# The Node threaded glue and its pthread worker are CommonJS inside an ESM package.
	@if [ -d $(WASM_DIST)/simd128-mt-node ]; then \
	  echo '{"type": "commonjs"}' > $(WASM_DIST)/simd128-mt-node/package.json; fi

build-wasm-tests: setup
	@for f in $(WASM_TEST_FLAVOURS); do \
	  echo "==> build: C++ kernel tests for wasm ($$f)"; \
	  cmake -S . -B $(BUILD)/wasm-$$f $(CMAKE_COMMON) $(CMAKE_WASM) \
	    -DLANEQL_WASM_FLAVOUR=$$f >/dev/null; \
	  cmake --build $(BUILD)/wasm-$$f -j $(JOBS); \
	done

build-js: setup
	@echo "==> build: TypeScript package"
	npm run build:js --silent

# The web demo (web-demo/): type check, then Vite bundles it with the package's wasm modules
# into web-demo/dist/.
build-demo: build-wasm build-js
	@echo "==> build: web demo"
	npm run build -w web-demo --silent

# Serves web-demo/dist on 127.0.0.1 with COOP/COEP (threads on); PORT=N picks the port (default
# 5173, the next free one if busy). Ctrl+C stops it.
demo: build-demo
	@echo "==> web demo"
	node web-demo/scripts/serve.mjs

# The dataset `make run` tours, generated once (about 2 s per million rows here).
RUN_ROWS ?= 10000000
RUN_DATA := $(ROOT)/data/hits-$(RUN_ROWS).laneql
run: build-native
	@echo; echo "==> laneql info"; $(LANEQL) info
	@if [ ! -f $(RUN_DATA) ]; then \
	  echo; echo "==> generating the hits table once: $(RUN_ROWS) rows into $(RUN_DATA)"; \
	  mkdir -p $(dir $(RUN_DATA)); \
	  $(LANEQL) gen hits --rows $(RUN_ROWS) --out $(RUN_DATA); fi
	@echo; echo "==> a tour of ClickBench-shaped queries on $(RUN_ROWS) rows ($$($(LANEQL) info --json \
	  | sed -n 's/.*"dispatched_target": "\([^"]*\)".*"threads": \([0-9]*\).*/target \1, \2 threads/p'))"
	$(LANEQL) native-cli/tour.sql --table hits=$(RUN_DATA) --timer --format table
	@echo; echo "==> try it: $(LANEQL) --table hits=$(RUN_DATA)   (an interactive shell; .help)"

# test-asan is not in it: its instrumented build pushed make test past 30 minutes on two cores;
# .ci/run runs it after make test, as it runs the aarch64 tests, when CI's 90 minutes allow.
test: build test-native test-install test-diff test-tpch test-wasm-kernels test-js test-tpch-js \
  test-e2e
	@echo "==> make test: all suites passed"

test-native: build-native
	@echo "==> test: native (GoogleTest under ctest, every compiled target)"
	ctest --test-dir $(BUILD)/native --output-on-failure -j $(JOBS)

# The program, the static library with its headers, find_package(laneql) files and the Arrow
# libraries Parquet input loads, under PREFIX (cmake/Install.cmake): make install PREFIX=$HOME/.local
PREFIX ?= /usr/local
install: build-native
	@echo "==> install: native build into $(PREFIX)"
	cmake --install $(BUILD)/native --prefix $(PREFIX)

# The installed tree moved elsewhere and used with the checkout hidden: laneql -c on SELECT 42, a
# CSV and a Parquet file, and a find_package(laneql) consumer (tests/install/test_install.sh).
test-install: build-native
	@echo "==> test: install into a temporary prefix, then use it away from the project"
	tests/install/test_install.sh $(BUILD)/native

# The 43 ClickBench queries on 1 M generated rows against DuckDB (the .venv's duckdb) as the
# oracle: integers exact, floats to 1e-9, order and ties as the queries define them
# (tests/diff/README.md). 1 M rows is the smallest size at which every query selects something.
DIFF_ROWS ?= 1000000
# make test's share of the random differential test (`make difftest` runs more).
DIFF_RANDOM_QUERIES ?= 300
DIFF_RANDOM_SEED ?= 1
DIFF_RANDOM_ROWS ?= 100000
# make test's share of the relational differential test (`make difftest-relational` runs more).
DIFF_RELATIONAL_QUERIES ?= 1000
DIFF_RELATIONAL_SEED ?= 1
test-diff: build-native
	@echo "==> test: ClickBench queries against DuckDB on $(DIFF_ROWS) generated rows"
	$(ROOT)/.venv/bin/python -m unittest tests/diff/test_diff_compare.py tests/diff/test_random_queries.py \
	  tests/diff/test_random_relational.py
	$(ROOT)/.venv/bin/python -m unittest bench/peers/test_report.py bench/peers/test_checks.py \
	  bench/tpch/test_tpch_bench.py bench/efficiency/test_efficiency.py
	node --test bench/wasm/compare.test.mjs bench/tpch/wasm.test.mjs
	$(ROOT)/.venv/bin/python tests/diff/run_diff.py --rows $(DIFF_ROWS) \
	  --tool $(BUILD)/native/tests/diff/hits_diff_tool --workdir $(BUILD)/diff-work
	@echo "==> test: $(DIFF_RANDOM_QUERIES) random queries against DuckDB (tests/diff/random_diff.py)"
	$(ROOT)/.venv/bin/python tests/diff/random_diff.py --queries $(DIFF_RANDOM_QUERIES) \
	  --seed $(DIFF_RANDOM_SEED) --rows $(DIFF_RANDOM_ROWS) --tool $(BUILD)/native/tests/diff/hits_diff_tool \
	  --workdir $(BUILD)/diff-work --minimize 1 --no-write
	@echo "==> test: $(DIFF_RELATIONAL_QUERIES) random multi-table queries against DuckDB (tests/diff/relational_diff.py)"
	$(ROOT)/.venv/bin/python tests/diff/relational_diff.py --queries $(DIFF_RELATIONAL_QUERIES) \
	  --seed $(DIFF_RELATIONAL_SEED) --tool $(BUILD)/native/tests/diff/hits_diff_tool \
	  --workdir $(BUILD)/diff-work --minimize 1

# Random queries (predicates, group keys, aggregates, HAVING, ORDER BY, LIMIT) against DuckDB:
# make difftest N=10000 SEED=7 ROWS=100000. Each failure (up to MINIMIZE=3) is minimised and
# appended to tests/sql/random_regressions.test with DuckDB's rows (tests/diff/README.md).
difftest: setup
	cmake -S . -B $(BUILD)/native $(CMAKE_COMMON) >/dev/null
	cmake --build $(BUILD)/native -j $(JOBS) --target hits_diff_tool sql_corpus_runner
	$(ROOT)/.venv/bin/python tests/diff/random_diff.py --queries $(or $(N),1000) \
	  --seed $(or $(SEED),1) --rows $(or $(ROWS),100000) --minimize $(or $(MINIMIZE),3) \
	  --tool $(BUILD)/native/tests/diff/hits_diff_tool \
	  --runner $(BUILD)/native/tests/sql/sql_corpus_runner --workdir $(BUILD)/diff-work

# Random multi-table queries (joins, subqueries, CTEs, set operations) against DuckDB:
# make difftest-relational N=10000 SEED=7. Up to MINIMIZE=3 failures are minimised and printed
# with their tables (tests/diff/README.md).
difftest-relational: setup
	cmake -S . -B $(BUILD)/native $(CMAKE_COMMON) >/dev/null
	cmake --build $(BUILD)/native -j $(JOBS) --target hits_diff_tool
	$(ROOT)/.venv/bin/python tests/diff/relational_diff.py --queries $(or $(N),1000) \
	  --seed $(or $(SEED),1) --minimize $(or $(MINIMIZE),3) \
	  --tool $(BUILD)/native/tests/diff/hits_diff_tool --workdir $(BUILD)/diff-work

# TPC-H's 22 queries (../shared/tpch) through the laneql CLI against DuckDB on tpchgen-cli's CSV
# files at each scale factor of TPCH_SFS, generated once into build/tpch/sf<SF>/
# (tests/tpch/README.md). Every query is reported; those in tests/tpch/expected_pass.txt (all 22)
# fail the target when they fail. `make test-tpch TPCH_SFS=1` for the larger scale. Each scale
# runs twice: on the types read_csv infers (DOUBLE money), then with the specification's typing
# (TPCH_SCHEMA, the shared create.sql: DECIMAL(15,2)) when that file is there.
TPCH_SFS ?= 0.01 0.1
TPCH_SCHEMA ?= $(firstword $(wildcard $(ROOT)/../shared/tpch/create.sql /work/shared/tpch/create.sql))
test-tpch: build-native
	$(ROOT)/.venv/bin/python -m unittest tests/tpch/test_run_tpch.py
	@for sf in $(TPCH_SFS); do \
	  echo "==> test: TPC-H queries against DuckDB at SF $$sf (tests/tpch/run_tpch.py)"; \
	  $(ROOT)/.venv/bin/python tests/tpch/run_tpch.py --sf $$sf --laneql $(LANEQL) \
	    --expect tests/tpch/expected_pass.txt --workdir $(BUILD)/tpch || exit 1; \
	  if [ -n "$(TPCH_SCHEMA)" ]; then \
	    echo "==> test: the same with $(TPCH_SCHEMA)'s DECIMAL typing at SF $$sf"; \
	    $(ROOT)/.venv/bin/python tests/tpch/run_tpch.py --sf $$sf --laneql $(LANEQL) \
	      --schema $(TPCH_SCHEMA) --expect tests/tpch/expected_pass.txt --workdir $(BUILD)/tpch || exit 1; \
	  fi; \
	done

# The same 22 queries through the npm package, on every flavour Node runs (tests/tpch/README.md).
TPCH_JS_SFS ?= 0.01 0.1
test-tpch-js: build-wasm build-js
	@for sf in $(TPCH_JS_SFS); do \
	  echo "==> test: TPC-H through the npm package on every Node flavour at SF $$sf (tests/tpch/run_tpch_js.py)"; \
	  $(ROOT)/.venv/bin/python tests/tpch/run_tpch_js.py --sf $$sf \
	    --expect tests/tpch/expected_pass.txt --workdir $(BUILD)/tpch || exit 1; \
	done

# The kernel tests again under AddressSanitizer and UBSan, on AVX2 and SCALAR: no kernel may read
# or write outside its buffers, even in the tails Highway's partial loads handle.
test-asan: setup
	@echo "==> test: native kernel tests under ASan + UBSan"
	@# Build type None + -O1 keeps assertions on and compiles faster than -O3. Two targets:
	@# AVX2 (32-byte vectors) and SCALAR. The AVX-512 targets read and write as AVX2 does with
	@# wider vectors, and SSE4's 16-byte tails are the wasm SIMD target's, which
	@# test-wasm-kernels runs; every instrumented target costs minutes of compile in CI here
	@# (all six took 12). LANEQL_SANITIZE instruments the kernel library
	@# (kernel/CMakeLists.txt), not the tests.
	cmake -S . -B $(BUILD)/asan $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=None -DLANEQL_BUILD_CLI=OFF \
	  -DLANEQL_BUILD_BENCH=OFF -DLANEQL_PARQUET=OFF \
	  -DLANEQL_EXTRA_DISABLED_TARGETS="HWY_AVX3_SPR|HWY_AVX3|HWY_AVX3_ZEN4|HWY_SSE4" \
	  -DLANEQL_SANITIZE=address,undefined -DCMAKE_CXX_FLAGS="-O1" >/dev/null
	cmake --build $(BUILD)/asan -j $(JOBS)
	ctest --test-dir $(BUILD)/asan --output-on-failure -j $(JOBS)

# The code that runs on several threads (the thread pool, the profiler) and the SQL engine under
# ThreadSanitizer: no data race and no lock-order inversion. The engine's threaded paths: the
# split by keys and the owned scan (GroupSplit), the merges, cancelling and timing out a running
# query from another thread, the memory limit charged by every worker. Not part of `make test`
# (the instrumented build takes a while); run it after touching threads.
TSAN_FILTER := ThreadPoolTest.*:ProfileTest.*:JsonCheckerTest.*:SqlEngine*:GroupSplit.*:*GroupHashTableFind*:DistinctMerge.*
TSAN_FILTER := $(TSAN_FILTER):QueryInterruptTest.*:DatabaseInterruptTest.*:QueryTimeoutTest.*
TSAN_FILTER := $(TSAN_FILTER):*MemoryLimitTest.*:QueryOptionsTest.*:GroupSizeHints.*:*SortPositions*:FilterLiveWords.*:LargeBlocks.*
TSAN_FILTER := $(TSAN_FILTER):DistinctPartitions.*:PartitionedDistinct.*:GroupPartitions.*:PartitionedGroupBy.*
TSAN_FILTER := $(TSAN_FILTER):Column.AllAscii*:RunTasksTest.*:TopGroupsTest.*:HashJoinTest.*:JoinPipelineTest.*
TSAN_ENV := TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1"
test-tsan: setup
	@echo "==> test: thread pool, profiler and SQL engine under ThreadSanitizer"
	@# Build type None + -O1 -g as in test-asan. Races do not depend on the vector width, so two
	@# targets are enough: AVX2 (a real SIMD one) and the portable fallback. The hits generator
	@# builds once for the baseline (LANEQL_HITS_MULTIVERSION empty): its target_clones ifunc
	@# resolver, instrumented, runs at relocation before the TSan runtime is up and crashes.
	cmake -S . -B $(BUILD)/tsan $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=None -DLANEQL_BUILD_CLI=OFF \
	  -DLANEQL_BUILD_BENCH=OFF -DLANEQL_PARQUET=OFF \
	  -DLANEQL_EXTRA_DISABLED_TARGETS="HWY_AVX3_SPR|HWY_AVX3_ZEN4|HWY_AVX3|HWY_SSE4" \
	  -DCMAKE_CXX_FLAGS="-O1 -g -fsanitize=thread -fno-omit-frame-pointer -DLANEQL_HITS_MULTIVERSION=" \
	  >/dev/null
	cmake --build $(BUILD)/tsan -j $(JOBS) --target laneql_kernel_tests sql_corpus_runner
	$(TSAN_ENV) $(BUILD)/tsan/tests/cpp/laneql_kernel_tests --gtest_filter='$(TSAN_FILTER)'
	$(TSAN_ENV) ctest --test-dir $(BUILD)/tsan -R '^sql_corpus\.' --output-on-failure -j $(JOBS)

# aarch64: the kernel, its C++ tests and the SQL corpus cross-compiled with g++-aarch64-linux-gnu
# (cmake/toolchain-aarch64.cmake; Highway compiles NEON, SVE, SVE2 and their fixed-width variants
# with run-time dispatch) and run under qemu-user, once per emulated CPU: cortex-a72 has NEON
# only, max has SVE2 (512-bit vectors). ARM64_CPUS lists CPU:TARGET[:GTEST_FILTER], TARGET being
# the Highway target that CPU must run (tests/arm64/run_under_qemu.sh checks it). qemu 7.2's SEL
# on predicates is wrong past 128-bit vectors (it keeps the first 16 lanes' result: README, What
# runs where), and Highway's mask Or is that SEL, so the IN-list tests run on 128-bit SVE and
# the rest on 512-bit SVE. Parquet and the CLI
# are not built (Arrow comes from an x86 wheel; the CLI needs libedit); RE2 is Debian's arm64
# package. ARM64_CMAKE_ARGS passes more, e.g. -DLANEQL_EXTRA_DISABLED_TARGETS=...
ARM64_BUILD ?= $(BUILD)/arm64
ARM64_SVE_SEL_TESTS := *InList*:*FilterKernelsMatchTheEvaluator*
ARM64_CPUS ?= cortex-a72:NEON max:SVE2:-$(ARM64_SVE_SEL_TESTS) \
  max,sve-default-vector-length=16:SVE2:$(ARM64_SVE_SEL_TESTS)
ARM64_CMAKE_ARGS ?=
build-arm64:
	@bash tools/setup/setup.sh --arm64
	@echo "==> build: aarch64 into $(ARM64_BUILD) (cross, Highway dynamic dispatch)"
	cmake -S . -B $(ARM64_BUILD) $(CMAKE_COMMON) -DCMAKE_TOOLCHAIN_FILE=$(ROOT)/cmake/toolchain-aarch64.cmake \
	  -DLANEQL_BUILD_CLI=OFF -DLANEQL_BUILD_BENCH=OFF -DLANEQL_PARQUET=OFF $(ARM64_CMAKE_ARGS) >/dev/null
	cmake --build $(ARM64_BUILD) -j $(JOBS) --target laneql_kernel_tests laneql_alloc_tests \
	  sql_corpus_runner sql_corpus_runner_tests

test-arm64: build-arm64
	@echo "==> test: aarch64 under qemu-user ($(ARM64_CPUS))"
	tests/arm64/run_under_qemu.sh $(ARM64_BUILD) $(JOBS) $(ARM64_CPUS)

# The NEON half alone, in a build of its own that compiles only the NEON targets and the fallback
# (the four SVE targets are more than half of the SIMD compile): the lighter run for CI.
test-arm64-neon:
	$(MAKE) --no-print-directory test-arm64 ARM64_BUILD=$(BUILD)/arm64-neon ARM64_CPUS=cortex-a72:NEON \
	  ARM64_CMAKE_ARGS='-DLANEQL_EXTRA_DISABLED_TARGETS="HWY_SVE|HWY_SVE2|HWY_SVE_256|HWY_SVE2_128"'

# --no-experimental-fetch: this Emscripten's glue would fetch() the .wasm by file path, which Node's
# fetch rejects; without fetch it reads the file.
# The flavours run side by side (each mostly on one thread: about nine minutes each here); their
# output is printed one after the other, and any failure fails the target.
test-wasm-kernels: build-wasm-tests
	@echo "==> test: C++ kernel tests on wasm ($(WASM_TEST_FLAVOURS)) under Node, side by side"
	@status=0; for f in $(WASM_TEST_FLAVOURS); do \
	  (cd $(BUILD)/wasm-$$f/tests/cpp && node --no-experimental-fetch laneql_kernel_tests.js \
	    > $(BUILD)/wasm-$$f/kernel-tests.log 2>&1) & \
	done; \
	for f in $(WASM_TEST_FLAVOURS); do wait -n || status=1; done; \
	for f in $(WASM_TEST_FLAVOURS); do \
	  echo "==> C++ kernel tests on wasm ($$f):"; cat $(BUILD)/wasm-$$f/kernel-tests.log; \
	done; \
	exit $$status

test-js: build-wasm build-js
	@echo "==> test: npm package in Node (Vitest, every wasm flavour that runs in Node)"
	npm run test:js --silent

# The npm package as it would be published: build/laneql-<version>.tgz, and each wasm module's raw
# and gzipped size against the 2 MB (gzipped) budget.
pack: build-wasm build-js
	@echo "==> npm pack: the laneql package"
	@mkdir -p $(BUILD)
	cd bindings-js && npm pack --silent --pack-destination $(BUILD) >/dev/null
	node tools/pack/pack-report.mjs

# ClickBench in Node: laneql-wasm vs duckdb-wasm vs laneql native (bench/wasm/README.md); not part
# of make test. BENCH_ROWS rows (default 1 M); installs bench/wasm's own npm project on first use.
BENCH_ROWS ?= 1000000
bench-wasm: build-native build-wasm build-js
	node --no-experimental-fetch bench/wasm/run.mjs --rows $(BENCH_ROWS) --laneql $(LANEQL) \
	  --python $(ROOT)/.venv/bin/python --out $(BUILD)/bench-wasm/wasm-$(BENCH_ROWS).md

# laneql against its peers (bench/peers/README.md); not part of make test. Installs DuckDB, chDB
# and Polars (exact versions, bench/peers/requirements.txt) into .venv-bench on first use, and
# bench/wasm's npm project (duckdb-wasm) through run.mjs. PEER_ROWS rows (default 10 M: tens of
# minutes here); PEER_ROWS=200000 is a quick look. Writes bench/results/peers-<rows>.{md,json,svg}.
PEER_ROWS ?= 10000000
PEER_ARGS ?=
PEER_VENV := $(ROOT)/.venv-bench
bench: build-native build-wasm build-js
	@bash bench/peers/setup_venv.sh $(PEER_VENV)
	$(PEER_VENV)/bin/python bench/peers/run.py --rows $(PEER_ROWS) --laneql $(LANEQL) $(PEER_ARGS)

# TPC-H's 22 queries: laneql vs DuckDB, chDB and Polars at 1 and 2 threads, laneql-wasm vs
# duckdb-wasm in Node, every answer checked against DuckDB's, peak memory (bench/tpch/README.md);
# not part of make test. TPCH_BENCH_SF (default 1), the wasm pair at TPCH_BENCH_WASM_SF (default
# the same; SF 1 takes laneql-wasm to about 4 GB, all wasm32 has); writes
# bench/results/tpch-sf<SF>.{md,json,svg}.
# Work efficiency (issue #45): every ClickBench (EFFICIENCY_ROWS generated rows) and TPC-H
# (EFFICIENCY_SF) query's CPU time at 1, 4, 16 and 64 threads, whatever the cores, and per phase
# from the profile (bench/efficiency/README.md); writes bench/results/efficiency.{md,json}. Not
# part of make test.
# Sizes past int32: a string column of over 2 GiB of text through the generator, queries, a
# .laneql file, TSV and Parquet, and through the npm package (tests/large). Not part of make
# test: about 17 GB of memory at its peak (measured) and 4-5 minutes.
test-large-strings: build-native build-wasm build-js
	@echo "==> test: a string column of over 2 GiB (tests/large)"
	LANEQL_LARGE_DIR=$(BUILD) $(BUILD)/native/tests/large/laneql_large_tests
	$(ROOT)/.venv/bin/python tests/large/parquet_over_2gib.py $(LANEQL) $(BUILD)
	node tests/large/npm_over_2gib.mjs

# The full-size ClickBench table (100 M rows, about 61 GB on disk, made a group of columns at a
# time) and the 43 queries on it: bench/results/hits-100m.{md,json}.
HITS_100M ?= $(ROOT)/data/hits-100m.laneql
bench-hits-100m: build-native
	python3 bench/hits100m/run.py --data $(HITS_100M)

.PHONY: bench-efficiency
EFFICIENCY_ROWS ?= 10000000
EFFICIENCY_SF ?= 1
bench-efficiency: build-native
	$(ROOT)/.venv/bin/python bench/efficiency/run.py --hits-rows $(EFFICIENCY_ROWS) --tpch-sf $(EFFICIENCY_SF)

.PHONY: bench-tpch
TPCH_BENCH_SF ?= 1
TPCH_BENCH_WASM_SF ?= $(TPCH_BENCH_SF)
TPCH_BENCH_ARGS ?=
bench-tpch: build-native build-wasm build-js
	@bash bench/peers/setup_venv.sh $(PEER_VENV)
	$(PEER_VENV)/bin/python bench/tpch/run.py --sf $(TPCH_BENCH_SF) --wasm-sf $(TPCH_BENCH_WASM_SF) \
	  --laneql $(LANEQL) $(TPCH_BENCH_ARGS)

# Speed-up curves (issue #44 / #45): ClickBench on SCALING_ROWS generated rows and TPC-H at
# SCALING_SF through `laneql bench` at 1, 2, 4, 8 and 16 threads, then the report
# bench/results/scaling-$(SCALING_NAME).md. Meant for a machine with 16 cores (the device run in
# bench/scaling/README.md packs the binary for one); on 2 cores it only shows the oversubscription.
.PHONY: bench-scaling
SCALING_ROWS ?= 20000000
SCALING_SF ?= 1,10
SCALING_NAME ?= local
bench-scaling: build-native
	python3 bench/scaling/run.py --laneql $(LANEQL) --hits-rows $(SCALING_ROWS) --tpch-sf $(SCALING_SF) \
	  --out-dir $(BUILD)/scaling
	python3 bench/scaling/report.py --name $(SCALING_NAME) --command "make bench-scaling" $(BUILD)/scaling/scaling-*.json

# What a query costs before it reads data (bench/results/planning.md): SELECT count(*) end to end,
# parse and bind of 1-table ClickBench queries, EXPLAIN of a 3-table join. Not part of make test.
.PHONY: bench-planning
PLANNING_ARGS ?=
bench-planning: build-native
	$(BUILD)/native/bench/laneql_planning_bench $(PLANNING_ARGS)

# Each scalar function, aggregate and window over FUNCTION_ROWS rows (default 10 M: about ten
# minutes here), laneql against DuckDB at 2 threads, every answer checked; writes
# bench/results/functions.md (bench/functions/run.py --help). Not part of make test.
.PHONY: bench-functions
FUNCTION_ROWS ?= 10000000
FUNCTION_ARGS ?=
bench-functions: build-native
	$(ROOT)/.venv/bin/python bench/functions/run.py --rows $(FUNCTION_ROWS) --laneql $(LANEQL) $(FUNCTION_ARGS)

# Filters and joins over 10 M rows in timestamp order (zone maps, min/max runtime filters), laneql
# against DuckDB at 1 and 2 threads, every answer checked; prints bench/results/sorted.md's tables.
.PHONY: bench-sorted
bench-sorted: build-native
	$(ROOT)/.venv/bin/python bench/sorted/run.py --laneql $(LANEQL) --threads 1
	$(ROOT)/.venv/bin/python bench/sorted/run.py --laneql $(LANEQL) --threads 2

# The package's browser flavours, then the web demo through its UI (answers checked against the
# native laneql, hence build-native).
test-e2e: build-wasm build-js build-demo build-native
	@echo "==> test: browser flavours in headless Chromium"
	npm run test:e2e --silent
	@echo "==> test: the web demo in headless Chromium"
	npm run test:e2e-demo --silent

# libFuzzer targets (tests/fuzz/README.md): SQL, the CSV reader, the .laneql reader and LIKE, each
# run FUZZ_SECONDS (default 60) with ASan + UBSan; prints executions and coverage per target and
# fails on a crash, hang or leak (the input is kept in build/fuzz/artifacts/<target>/). Not part
# of make test. FUZZ_TARGETS picks some, e.g. FUZZ_TARGETS="sql like".
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= sql csv table_file like
fuzz: setup
	@echo "==> build: libFuzzer targets (clang, ASan + UBSan)"
	@# Build type None + -O1 as in test-asan. AVX3, AVX2 and the portable EMU128 (the LIKE target
	@# runs each one the CPU has): AVX3_SPR, ZEN4 and SSE4 add compile time, not cases.
	CC=clang-14 CXX=clang++-14 cmake -S . -B $(BUILD)/fuzz $(CMAKE_COMMON) -DCMAKE_BUILD_TYPE=None \
	  -DLANEQL_BUILD_TESTS=OFF -DLANEQL_BUILD_CLI=OFF -DLANEQL_BUILD_BENCH=OFF -DLANEQL_PARQUET=OFF \
	  -DLANEQL_FUZZ=ON -DLANEQL_SANITIZE=fuzzer-no-link,address,undefined \
	  -DLANEQL_EXTRA_DISABLED_TARGETS="HWY_AVX3_SPR|HWY_AVX3_ZEN4|HWY_SSE4" \
	  -DCMAKE_CXX_FLAGS="-O1 -gline-tables-only" >/dev/null
	cmake --build $(BUILD)/fuzz -j $(JOBS) --target fuzz_write_table_seeds \
	  $(addprefix fuzz_,$(FUZZ_TARGETS))
	tests/fuzz/run.sh $(BUILD)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

clean:
	rm -rf $(BUILD) bindings-js/dist web-demo/dist
