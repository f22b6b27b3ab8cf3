#!/usr/bin/env bash
# Makes the peer benchmark's venv (default .venv-bench at the repository root) from
# bench/peers/requirements.txt, once: a stamp holds the requirements' hash, so a changed pin
# reinstalls and an unchanged one does nothing. Only PyPI needs to be reachable.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
VENV=${1:-$ROOT/.venv-bench}
REQ="$ROOT/bench/peers/requirements.txt"
want=$(sha256sum "$REQ" | cut -d' ' -f1)
if [ -f "$VENV/.laneql-req-sha256" ] && [ "$(cat "$VENV/.laneql-req-sha256")" = "$want" ]; then
  echo "==> bench: $VENV matches bench/peers/requirements.txt"
  exit 0
fi
echo "==> bench: installing the peers (DuckDB, chDB, Polars) into $VENV"
py=/usr/bin/python3; [ -x "$py" ] || py=$(command -v python3)
"$py" -m venv --clear "$VENV"
"$VENV/bin/pip" install -q --disable-pip-version-check -r "$REQ"
echo "$want" > "$VENV/.laneql-req-sha256"
