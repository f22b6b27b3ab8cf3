#!/usr/bin/env bash
# The 16-core run (the `device` tool), from the repository root there:
#   bash bench/scaling/device.sh BUNDLE      (BUNDLE made here by bench/scaling/bundle.sh, carried)
# Generates the data in memory (/dev/shm) and runs bench/scaling/run.py into $OUT (or
# build/scaling). SCALING_ARGS adds to or overrides run.py's options (the rows, scale factors,
# deadline): the device's time is short, and run.py starts nothing past --deadline-s.
set -euo pipefail
bundle=$1
out=${OUT:-build/scaling}
data=/dev/shm/laneql-scaling
mkdir -p "$out" "$data"
{ nproc; grep -m1 "model name" /proc/cpuinfo; free -g | head -2; df -h /dev/shm | tail -1; } 2>&1 | tee "$out/machine.txt"
set -o pipefail
PYTHONUNBUFFERED=1 python3 bench/scaling/run.py --laneql "$bundle/laneql" --queries-dir "$bundle/queries" \
  --data-dir "$data" --out-dir "$out" --hits-rows 20000000 --tpch-sf 1,10 --deadline-s 420 \
  ${SCALING_ARGS:-} 2>&1 | tee "$out/log.txt"
