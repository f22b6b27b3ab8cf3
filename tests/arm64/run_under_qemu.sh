#!/usr/bin/env bash
# Runs the aarch64 cross build's tests (the kernel tests, the allocation test, the SQL corpus and
# its runner's tests: ctest in BUILD_DIR) under qemu-user, once per emulated CPU.
#
#   tests/arm64/run_under_qemu.sh BUILD_DIR JOBS CPU:TARGET[:FILTER] [CPU:TARGET[:FILTER] ...]
#   e.g. tests/arm64/run_under_qemu.sh build/arm64 2 cortex-a72:NEON max:SVE2
#
# FILTER, when given, is a GoogleTest filter (GTEST_FILTER, it may contain colons) for that
# CPU's run of every GoogleTest program: the way to leave out a test that the emulator, not the
# code, gets wrong (see the Makefile's ARM64_CPUS).
#
# CPU is a qemu -cpu model (cortex-a72: NEON only; max: SVE2; a qemu CPU property such as
# max,sve-default-vector-length=16 works too). TARGET is the Highway target that must be the
# best one that CPU runs: before ctest, the kernel tests list their per-target instances for the
# emulated CPU, this script prints how many tests each target gets and fails unless TARGET is
# among them, so a run can never silently test the fallback only. (Each per-target instance
# itself asserts that dispatch really switched to its target: tests/cpp/target_param.cc.)
set -euo pipefail

[ $# -ge 3 ] || { echo "usage: $0 BUILD_DIR JOBS CPU:TARGET[:FILTER] ..." >&2; exit 2; }
build=$1 jobs=$2
shift 2
kernel_tests="$build/tests/cpp/laneql_kernel_tests"
[ -x "$kernel_tests" ] || { echo "no $kernel_tests: build the aarch64 tests first" >&2; exit 2; }
command -v qemu-aarch64-static >/dev/null || { echo "qemu-aarch64-static missing" >&2; exit 2; }

status=0
for spec in "$@"; do
  cpu=${spec%%:*} rest=${spec#*:}
  want=${rest%%:*} filter=
  [ "$want" != "$rest" ] && filter=${rest#*:}
  [ "$cpu" != "$spec" ] && [ -n "$want" ] || { echo "bad CPU:TARGET '$spec'" >&2; exit 2; }
  if [ -n "$filter" ]; then
    export GTEST_FILTER=$filter
    echo "==> GoogleTest filter for this CPU: $filter"
  else
    unset GTEST_FILTER
  fi
  # qemu-user reads the CPU model from QEMU_CPU: ctest's runs and this listing both get it.
  export QEMU_CPU=$cpu
  echo "==> aarch64 under qemu -cpu $cpu"
  # Per-target test names end in /<target> (TargetParamName) under suites "AllTargets/...".
  counts=$(qemu-aarch64-static "$kernel_tests" --gtest_list_tests \
    | awk '/^[^ ]/ { per_target = ($0 ~ /^AllTargets\//) }
           per_target && /^  / { name = $1; sub(/.*\//, "", name); n[name]++ }
           END { for (t in n) printf "%s %d\n", t, n[t] }' | sort)
  echo "per-target kernel tests on this CPU (target: tests):"
  echo "$counts" | sed 's/^/  /'
  if ! echo "$counts" | grep -q "^$want "; then
    echo "FAILED: -cpu $cpu does not run the $want target" >&2
    status=1
    continue
  fi
  start=$(date +%s)
  if ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 3000; then
    echo "==> -cpu $cpu: all tests passed ($(( $(date +%s) - start )) s)"
  else
    echo "==> -cpu $cpu: FAILED" >&2
    status=1
  fi
done
exit $status
