#!/usr/bin/env bash
# Installs everything laneql needs on a fresh Debian bookworm machine (run as root).
# Idempotent: each step checks what is there and does only what is missing.
# Reachable network: the package registries only (Debian apt, npm, PyPI, crates.io).
# Everything fetched or built goes under git-ignored folders: .deps/, .venv/, node_modules/.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DEPS="$ROOT/.deps"
HWY_VERSION=1.2.0
HWY_DIR="$DEPS/highway-$HWY_VERSION"
# sha256 over the sorted per-file sha256 lines of Highway 1.2.0's tree as the jpegxl-src 0.11.2
# crate ships it (222 files). Pinned so a changed source is caught, like FetchContent's URL_HASH.
HWY_TREE_SHA256=01354093d0a67db5df895a7e21d74f3e98881ef71414600e130e1f7fd657f976
# RE2 for the wasm builds (the native ones link Debian's libre2-dev, this same version): the
# source Debian bookworm builds its package from, out of Debian's own archive, whose tables
# (perl_groups.cc, unicode_*.cc) are made here as Debian makes them, from its unicode-data.
RE2_VERSION=2022-06-01
RE2_DIR="$DEPS/re2-$RE2_VERSION"
RE2_URL=http://deb.debian.org/debian/pool/main/r/re2/re2_20220601+dfsg.orig.tar.xz
RE2_SHA256=3bc61251da3b0b97be40a8a127818c517c62516e4eda11fc901d29496663df54

# libclang-rt-14-dev: clang-14's sanitizer and libFuzzer runtimes (make fuzz). curl, xz-utils,
# unicode-data and python3-six: fetching RE2's source and making its tables (step 2b; RE2's
# unicode.py imports six). ccache: every compile goes through it (tools/compiler-cache).
APT_PACKAGES=(cmake ninja-build ccache g++ clang lld libclang-rt-14-dev libgtest-dev libre2-dev libedit-dev
              pkg-config curl xz-utils unicode-data python3-six emscripten chromium python3 python3-venv nodejs npm cargo ca-certificates)
# With --arm64 (make build-arm64 / test-arm64 only: make run and make test do not need it): the
# aarch64 cross compiler, the emulator, and RE2 for arm64, Debian's multiarch package, which needs
# the arm64 architecture added to dpkg (libraries only; nothing of it runs on the host).
APT_PACKAGES_ARM64=()
if [ "${1:-}" = --arm64 ]; then
  APT_PACKAGES+=(g++-aarch64-linux-gnu qemu-user-static)
  APT_PACKAGES_ARM64=(libre2-dev:arm64)
fi

step() { printf '\n==> setup: %s\n' "$*"; }
fail() { printf '\nsetup FAILED in step "%s": %s\n' "$CURRENT_STEP" "$*" >&2; exit 1; }
trap 'fail "command failed (exit $?) at line $LINENO: $BASH_COMMAND"' ERR

# --- 1. Debian packages -------------------------------------------------------------------
CURRENT_STEP="apt packages"
step "$CURRENT_STEP"
missing=()
for p in "${APT_PACKAGES[@]}"; do
  case "$p" in
    # Tools that may come from elsewhere (rustup's cargo, NodeSource's node): accept any on PATH.
    cargo) command -v cargo >/dev/null 2>&1 && continue ;;
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
    python3) command -v python3 >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
for p in ${APT_PACKAGES_ARM64[@]+"${APT_PACKAGES_ARM64[@]}"}; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  [ "$(id -u)" = 0 ] || fail "need root to apt-get install ${missing[*]}"
  if [ ${#APT_PACKAGES_ARM64[@]} -gt 0 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    dpkg --add-architecture arm64 || fail "dpkg --add-architecture arm64 failed"
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q || fail "apt-get update failed (is the Debian mirror reachable?)"
  apt-get install -y -q --no-install-recommends "${missing[@]}" \
    || fail "apt-get install ${missing[*]} failed"
else
  echo "all present"
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || fail "Node.js >= 18 is needed, found $(node --version)"

# --- 2. Highway 1.2.0 source (one source for the native and the wasm builds) ---------------
CURRENT_STEP="Highway $HWY_VERSION source"
step "$CURRENT_STEP"
tree_hash() { (cd "$1" && find . -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -d' ' -f1); }
if [ -f "$HWY_DIR/.laneql-verified" ]; then
  echo "present: $HWY_DIR"
else
  rm -rf "$HWY_DIR" "$DEPS/cargo-vendor"
  mkdir -p "$DEPS"
  # A throw-away copy of the manifest, so that cargo writes its lock file and cache under .deps/.
  work="$DEPS/cargo-vendor"
  mkdir -p "$work/crate"
  cp "$ROOT/tools/setup/highway-crate/Cargo.toml" "$ROOT/tools/setup/highway-crate/lib.rs" "$work/crate/"
  (cd "$work/crate" && CARGO_HOME="$work/cargo-home" cargo vendor --versioned-dirs "$work/vendor" >/dev/null) \
    || fail "cargo vendor of jpegxl-src =0.11.2 from crates.io failed"
  src="$work/vendor/jpegxl-src-0.11.2/libjxl/third_party/highway"
  [ -f "$src/hwy/base.h" ] || fail "jpegxl-src 0.11.2 does not contain libjxl/third_party/highway"
  grep -q "project(hwy VERSION $HWY_VERSION)" "$src/CMakeLists.txt" \
    || fail "the vendored Highway is not version $HWY_VERSION"
  got=$(tree_hash "$src")
  [ "$got" = "$HWY_TREE_SHA256" ] || fail "Highway tree hash mismatch: got $got, want $HWY_TREE_SHA256"
  mv "$src" "$HWY_DIR"
  touch "$HWY_DIR/.laneql-verified"
  rm -rf "$work"
  echo "Highway $HWY_VERSION ready at $HWY_DIR"
fi

# --- 2b. RE2 source (compiled into the wasm builds) --------------------------------------------
CURRENT_STEP="RE2 $RE2_VERSION source"
step "$CURRENT_STEP"
if [ -f "$RE2_DIR/.laneql-verified" ]; then
  echo "present: $RE2_DIR"
else
  rm -rf "$RE2_DIR" "$DEPS/re2-download"
  mkdir -p "$DEPS/re2-download"
  archive="$DEPS/re2-download/re2.orig.tar.xz"
  curl -fsSL --retry 3 -o "$archive" "$RE2_URL" || fail "download of $RE2_URL failed"
  got=$(sha256sum "$archive" | cut -d' ' -f1)
  [ "$got" = "$RE2_SHA256" ] || fail "RE2 archive sha256 mismatch: got $got, want $RE2_SHA256"
  tar -xJf "$archive" -C "$DEPS/re2-download"
  src="$DEPS/re2-download/re2-$RE2_VERSION"
  [ -f "$src/re2/re2.h" ] || fail "the archive has no re2-$RE2_VERSION/re2/re2.h"
  # Debian's build: the Unicode tables from /usr/share/unicode (its debian-unicode-data.patch),
  # the generated sources by upstream's scripts (its REBUILD_TABLES=1).
  sed -i 's|^_UNICODE_DIR = .*|_UNICODE_DIR = "/usr/share/unicode"|' "$src/re2/unicode.py"
  perl "$src/re2/make_perl_groups.pl" > "$src/re2/perl_groups.cc"
  /usr/bin/python3 "$src/re2/make_unicode_casefold.py" > "$src/re2/unicode_casefold.cc"
  /usr/bin/python3 "$src/re2/make_unicode_groups.py" > "$src/re2/unicode_groups.cc"
  mv "$src" "$RE2_DIR"
  touch "$RE2_DIR/.laneql-verified"
  rm -rf "$DEPS/re2-download"
  echo "RE2 $RE2_VERSION ready at $RE2_DIR"
fi

# --- 3. npm workspaces (exact versions from the committed package-lock.json) ---------------
CURRENT_STEP="npm ci"
step "$CURRENT_STEP"
stamp="$ROOT/node_modules/.laneql-lock-sha256"
want=$(sha256sum "$ROOT/package-lock.json" | cut -d' ' -f1)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  echo "node_modules matches package-lock.json"
else
  (cd "$ROOT" && npm ci --no-audit --no-fund --loglevel=error) || fail "npm ci failed"
  echo "$want" > "$stamp"
fi

# --- 4. Python venv for test oracles (DuckDB) ----------------------------------------------
CURRENT_STEP="python venv"
step "$CURRENT_STEP"
VENV="$ROOT/.venv"
req="$ROOT/tools/setup/requirements.txt"
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ -f "$VENV/.laneql-req-sha256" ] && [ "$(cat "$VENV/.laneql-req-sha256")" = "$want" ]; then
  echo "venv matches requirements.txt"
else
  py=/usr/bin/python3; [ -x "$py" ] || py=$(command -v python3)
  "$py" -m venv "$VENV" || fail "python3 -m venv failed (is python3-venv installed?)"
  "$VENV/bin/pip" install -q --disable-pip-version-check -r "$req" || fail "pip install -r $req failed"
  echo "$want" > "$VENV/.laneql-req-sha256"
fi

trap - ERR
step "done"
