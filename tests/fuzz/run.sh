#!/usr/bin/env bash
# Runs each libFuzzer target for a bounded time and prints, per target, the executions, the
# coverage reached and the corpus size; exits non-zero if any target found a crash, a hang
# (-timeout), a leak or too much memory (-rss_limit_mb). Called by `make fuzz`:
#
#   tests/fuzz/run.sh <build dir> <seconds per target> [target ...]
#
# Each target runs on a working corpus in <build dir>/corpus/<target> (new inputs go there, so the
# committed seeds in tests/fuzz/corpus/<target> stay as written), seeded from the committed seeds;
# crash inputs go to <build dir>/artifacts/<target>/, logs to <build dir>/logs/<target>.log.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${1:?usage: run.sh <build dir> <seconds per target> [target ...]}
SECONDS_PER_TARGET=${2:?usage: run.sh <build dir> <seconds per target> [target ...]}
shift 2
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(sql csv table_file like)

# The .laneql seeds are written by the real writer at fuzz time (no binaries committed).
mkdir -p "$BUILD/seeds/table_file"
"$BUILD/tests/fuzz/fuzz_write_table_seeds" "$BUILD/seeds/table_file" || {
  echo "fuzz: writing the .laneql seeds failed" >&2; exit 1; }

failed=()
summary=()
for t in "${TARGETS[@]}"; do
  bin="$BUILD/tests/fuzz/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz: no target $t ($bin)" >&2; exit 2; }
  work="$BUILD/corpus/$t"
  artifacts="$BUILD/artifacts/$t"
  log="$BUILD/logs/$t.log"
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  seeds=()
  [ -d "$ROOT/tests/fuzz/corpus/$t" ] && seeds+=("$ROOT/tests/fuzz/corpus/$t")
  [ -d "$BUILD/seeds/$t" ] && seeds+=("$BUILD/seeds/$t")
  dict=()
  [ -f "$ROOT/tests/fuzz/$t.dict" ] && dict=("-dict=$ROOT/tests/fuzz/$t.dict")
  echo "==> fuzz: $t for ${SECONDS_PER_TARGET}s (log: $log)"
  # detect_leaks: every input's allocations must be freed; the targets' one-time tables are
  # reachable from statics, which LeakSanitizer does not count.
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
    "$bin" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" \
    "$work" "${seeds[@]}" >"$log" 2>&1
  rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1)
  line="$t: ${execs:-?} executions, ${cov:-no coverage line}"
  if [ $rc -ne 0 ]; then
    line+=" -- FAILED (exit $rc), inputs in $artifacts"
    failed+=("$t")
    grep -m1 -E 'ERROR: |SUMMARY: |fuzzer: ' "$log" | sed 's/^/    /'
  fi
  summary+=("$line")
done

echo "==> fuzz summary (${SECONDS_PER_TARGET}s per target)"
printf '  %s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: ${#failed[@]} target(s) failed: ${failed[*]}; reproduce with" \
       "$BUILD/tests/fuzz/fuzz_<target> <artifact file>" >&2
  exit 1
fi
