#!/usr/bin/env bash
# Packs a laneql binary with every library it links (the dynamic loader too) and the benchmark's
# queries into DIR, for a machine that has none of them (the 16-core `device` machine):
#   bench/scaling/bundle.sh BINARY DIR
# DIR/laneql then runs the binary through the packed loader and libraries, and DIR/queries holds
# clickbench/queries.sql and tpch/queries/ for bench/scaling/run.py --queries-dir. Build the binary
# without Parquet (-DLANEQL_PARQUET=OFF): Arrow's libraries would add about 64 MB.
set -euo pipefail
binary=$1
dir=$2
shared=${LANEQL_SHARED_DIR:-$(cd "$(dirname "$0")/../../.." && pwd)/shared}
rm -rf "$dir"
mkdir -p "$dir/queries/clickbench" "$dir/queries/tpch"
cp "$binary" "$dir/laneql.bin"
# ldd's lines: "name => /path (addr)" for libraries, "/path (addr)" for the loader.
ldd "$binary" | awk '/=> \//{print $3} /^\t\//{print $1}' | while read -r lib; do cp -L "$lib" "$dir/"; done
loader=$(basename "$(ldd "$binary" | awk '/^\t\//{print $1}')")
cat > "$dir/laneql" <<WRAP
#!/bin/sh
here=\$(dirname "\$0")
exec "\$here/$loader" --library-path "\$here" "\$here/laneql.bin" "\$@"
WRAP
chmod +x "$dir/laneql"
cp "$shared/clickbench/queries.sql" "$dir/queries/clickbench/"
cp -r "$shared/tpch/queries" "$dir/queries/tpch/"
"$dir/laneql" --version >/dev/null
du -sh "$dir"
