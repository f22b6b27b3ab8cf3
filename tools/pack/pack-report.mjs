// What `npm pack` puts in the laneql package, and each wasm module's raw and gzipped size
// against the 2 MB (gzipped) budget. `make pack` prints it (and writes the .tgz to build/);
// tests/js/package.test.ts checks it.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const PACKAGE_DIR = fileURLToPath(new URL('../../bindings-js/', import.meta.url));
export const GZIP_BUDGET_BYTES = 2 * 1024 * 1024;

/** The files npm would pack, with each .wasm's sizes (gzip -9, as a server would send it). */
export function packReport() {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const [pack] = JSON.parse(out);
  const files = pack.files.map((f) => f.path).sort();
  const wasm = files
    .filter((path) => path.endsWith('.wasm'))
    .map((path) => {
      const bytes = readFileSync(new URL(path, `file://${PACKAGE_DIR}`));
      return { path, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
    });
  return { name: pack.name, version: pack.version, tarball: pack.size, unpacked: pack.unpackedSize, files, wasm };
}

function mb(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const report = packReport();
  console.log(`${report.name}@${report.version}: ${report.files.length} files, ${mb(report.tarball)} packed, ${mb(report.unpacked)} unpacked`);
  console.log('| wasm module | raw | gzip -9 | budget (2 MB gzipped) |');
  console.log('|---|---:|---:|---|');
  for (const w of report.wasm) {
    console.log(`| ${w.path} | ${mb(w.raw)} | ${mb(w.gzip)} | ${w.gzip <= GZIP_BUDGET_BYTES ? 'within' : 'OVER'} |`);
  }
  if (report.wasm.some((w) => w.gzip > GZIP_BUDGET_BYTES)) process.exitCode = 1;
}
