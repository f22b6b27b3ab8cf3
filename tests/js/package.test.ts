// The package as `npm pack` makes it: the ESM entry, its types, the Worker script and every wasm
// flavour (glue + module, and the threaded one's pthread worker), each .wasm within 2 MB gzipped.
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs tool without types
import { GZIP_BUDGET_BYTES, packReport } from '../../tools/pack/pack-report.mjs';

interface Report {
  files: string[];
  wasm: { path: string; raw: number; gzip: number }[];
}

describe('npm pack', () => {
  const report = packReport() as Report;

  it.each([
    'package.json',
    'README.md',
    'dist/index.js',
    'dist/index.d.ts',
    'dist/result-data.d.ts',
    'dist/worker-entry.js',
    'dist/worker-proxy.js',
    'dist/wasm/simd128/laneql-simd128.js',
    'dist/wasm/simd128/laneql-simd128.wasm',
    'dist/wasm/scalar/laneql-scalar.js',
    'dist/wasm/scalar/laneql-scalar.wasm',
    'dist/wasm/simd128-mt-web/laneql-simd128-mt-web.js',
    'dist/wasm/simd128-mt-web/laneql-simd128-mt-web.wasm',
    'dist/wasm/simd128-mt-web/laneql-simd128-mt-web.worker.js',
    'dist/wasm/simd128-mt-node/laneql-simd128-mt-node.js',
    'dist/wasm/simd128-mt-node/laneql-simd128-mt-node.wasm',
    'dist/wasm/simd128-mt-node/laneql-simd128-mt-node.worker.js',
    'dist/wasm/simd128-mt-node/package.json',
  ])('contains %s', (path) => {
    expect(report.files).toContain(path);
  });

  it('packs nothing but the built package', () => {
    const stray = report.files.filter((f) => !f.startsWith('dist/') && !['package.json', 'README.md'].includes(f));
    expect(stray).toEqual([]);
    expect(report.files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it('keeps every wasm module within 2 MB gzipped', () => {
    expect(report.wasm.map((w) => w.path)).toHaveLength(4);
    for (const w of report.wasm) {
      console.log(`${w.path}: ${w.raw} bytes raw, ${w.gzip} gzipped`);
      expect(w.gzip, w.path).toBeLessThanOrEqual(GZIP_BUDGET_BYTES);
      expect(w.gzip, w.path).toBeGreaterThan(0);
    }
  });
});
