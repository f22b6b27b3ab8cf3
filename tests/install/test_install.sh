#!/usr/bin/env bash
# Checks that an installed laneql works away from this checkout.
#
#   tests/install/test_install.sh [BUILD_DIR]     (make test-install; BUILD_DIR: build/native)
#
# Installs BUILD_DIR (cmake --install) into a temporary prefix, moves the prefix elsewhere, then,
# from another working directory and with the project folder out of sight, runs the installed
# `laneql -c` on SELECT 42, a CSV file and a Parquet file (also as user nobody with an empty
# environment), and builds and runs tests/install/consumer against the prefix through
# find_package(laneql). "Out of sight": as root, the checks run inside `unshare --mount` with an
# empty folder bind-mounted over the project root (and over the .venv and build folder when they
# lie outside it); where that is not possible they run in place and readelf / ldd must show
# nothing resolving into those folders. The output says which of the two ran.
set -euo pipefail

if [[ "${1:-}" == "--installed-checks" ]]; then
  mode=checks
else
  mode=main
fi

fail() { echo "test_install: FAIL: $*" >&2; exit 1; }

# expect WHAT WANT COMMAND...: runs COMMAND and compares its whole stdout with WANT.
expect() {
  local what=$1 want=$2 got
  shift 2
  got=$("$@") || fail "$what: exit status $? from: $*"
  [[ "$got" == "$want" ]] || fail "$what: got [$got], expected [$want]"
  echo "  ok: $what"
}

# no_project_paths FILE: FILE's RUNPATH/RPATH and the libraries ldd resolves for it name none of
# the hidden folders, and nothing is missing.
no_project_paths() {
  local file=$1 dyn resolved dir
  dyn=$(readelf -d "$file" | grep -E 'RUNPATH|RPATH' || true)
  resolved=$(ldd "$file")
  if grep -q 'not found' <<<"$resolved"; then
    fail "$file: ldd finds no $(grep 'not found' <<<"$resolved" | tr -s ' \t' ' ')"
  fi
  for dir in "${hidden[@]}"; do
    if grep -qF "$dir" <<<"$dyn$resolved"; then
      fail "$file refers to $dir: $dyn $(grep -F "$dir" <<<"$resolved" || true)"
    fi
  done
  echo "  ok: $(basename "$file"): no RPATH or library in ${hidden[*]}"
}

# The checks on the installed tree; with the project hidden when the main part could hide it.
installed_checks() {
  local prefix=$1 work=$2 has_parquet=$3
  shift 3
  hidden=("$@")
  local laneql=$prefix/bin/laneql
  cd "$work/elsewhere"
  # No help from the environment: only the system's programs.
  local clean_env=(env -i PATH=/usr/bin:/bin HOME="$work" LANG=C.UTF-8)

  expect "laneql -c 'SELECT 42 AS answer'" $'answer\n42' \
    "${clean_env[@]}" "$laneql" -c "SELECT 42 AS answer"
  expect "laneql on a CSV file" $'sum(a)\tmax(b)\n60\tgamma' \
    "${clean_env[@]}" "$laneql" -c "SELECT sum(a), max(b) FROM 'data/t.csv'"
  if [[ "$has_parquet" == ON ]]; then
    expect "laneql on a Parquet file" $'count_star()\tsum(x)\tmax(s)\n3\t60\tgamma' \
      "${clean_env[@]}" "$laneql" -c "SELECT count(*), sum(x), max(s) FROM 'data/t.parquet'"
  else
    echo "  (this build has no Parquet input: nothing to check)"
  fi
  if [[ $(id -u) == 0 ]] && id nobody >/dev/null 2>&1; then
    expect "laneql as user nobody" $'answer\n42' setpriv --reuid=nobody --regid="$(id -g nobody)" \
      --clear-groups "${clean_env[@]}" "$laneql" -c "SELECT 42 AS answer"
  fi
  no_project_paths "$laneql"

  echo "  building tests/install/consumer against $prefix (find_package(laneql))"
  (unset LD_LIBRARY_PATH CMAKE_PREFIX_PATH
   cmake -S "$work/consumer" -B "$work/consumer-build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
     -DCMAKE_PREFIX_PATH="$prefix" >"$work/consumer.log" 2>&1 &&
   cmake --build "$work/consumer-build" >>"$work/consumer.log" 2>&1) ||
    { cat "$work/consumer.log" >&2; fail "the consumer did not build"; }
  # The version the package's version file announces, which the library must report too.
  local version
  version=$(sed -n 's/^set(PACKAGE_VERSION "\(.*\)")$/\1/p' \
    "$prefix"/lib*/cmake/laneql/laneqlConfigVersion.cmake)
  local want="version: $version"$'\nSELECT 42: 42\nparquet: '
  if [[ "$has_parquet" == ON ]]; then
    want+=$'3\t60\tgamma'
  else
    want+="not in this install"
  fi
  expect "consumer (SELECT 42 through the public API)" "$want" \
    "${clean_env[@]}" "$work/consumer-build/consumer" "$work/elsewhere/data/t.parquet"
  no_project_paths "$work/consumer-build/consumer"
}

if [[ $mode == checks ]]; then
  shift
  installed_checks "$@"
  exit 0
fi

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
BUILD=$(cd "${1:-$ROOT/build/native}" && pwd -P)
PYTHON=$ROOT/.venv/bin/python
[[ -f "$BUILD/cmake_install.cmake" ]] || fail "$BUILD is not a configured build (make build-native)"

work=$(mktemp -d /tmp/laneql-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"  # user nobody runs the installed program from here

echo "==> installing $BUILD into a temporary prefix"
cmake --install "$BUILD" --prefix "$work/staged" >"$work/install.log"
# Relocatable: the checks use the tree at another path than the one it was installed to.
mkdir -p "$work/elsewhere/data"
mv "$work/staged" "$work/elsewhere/prefix"
prefix=$work/elsewhere/prefix
echo "    moved to $prefix"

has_parquet=OFF
if grep -q '^set(laneql_HAS_PARQUET ON)' "$prefix"/lib*/cmake/laneql/laneqlConfig.cmake; then
  has_parquet=ON
fi
# The inputs, written while the project (its .venv's pyarrow) is still in sight.
printf 'a,b\n10,alpha\n20,gamma\n30,beta\n' >"$work/elsewhere/data/t.csv"
if [[ $has_parquet == ON ]]; then
  "$PYTHON" -c '
import sys, pyarrow as pa, pyarrow.parquet as pq
pq.write_table(pa.table({"x": pa.array([10, 20, 30], pa.int64()),
                         "s": ["alpha", "gamma", "beta"]}), sys.argv[1])' \
    "$work/elsewhere/data/t.parquet"
fi
cp -r "$ROOT/tests/install/consumer" "$work/consumer"
cp "${BASH_SOURCE[0]}" "$work/test_install.sh"

# What must not be used: the checkout, and its .venv and build folder wherever they really are.
hidden=("$ROOT")
for dir in "$ROOT/.venv" "$BUILD"; do
  [[ -e "$dir" ]] || continue
  dir=$(cd "$dir" && pwd -P)
  [[ "$dir/" == "$ROOT/"* ]] || hidden+=("$dir")
done

empty=$work/empty
mkdir "$empty"
checks=(bash "$work/test_install.sh" --installed-checks "$prefix" "$work" "$has_parquet"
        "${hidden[@]}")
if [[ $(id -u) == 0 ]] && unshare --mount mount --bind "$empty" "$empty" 2>/dev/null; then
  echo "==> checks with the project hidden: unshare --mount, an empty folder over ${hidden[*]}"
  # The bind mounts exist only in the child's mount namespace (unshare makes it private).
  hide='empty=$1; shift; while [[ $1 != -- ]]; do mount --bind "$empty" "$1"; shift; done; shift
        [[ ! -e "$0/CMakeLists.txt" ]] || { echo "the project is still visible" >&2; exit 1; }
        exec "$@"'
  (cd / && unshare --mount bash -c "$hide" "$ROOT" "$empty" "${hidden[@]}" -- "${checks[@]}")
else
  echo "==> checks in place (fallback: unshare --mount is not available here);" \
       "readelf / ldd must show nothing in ${hidden[*]}"
  (cd / && "${checks[@]}")
fi
echo "==> test_install: the installed tree works on its own"
