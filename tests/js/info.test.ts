import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { describe, expect, it } from 'vitest';
import { detectFlavour, wasmSimdSupported } from '../../bindings-js/dist/index.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

const packageJson = JSON.parse(
  readFileSync(new URL('../../bindings-js/package.json', import.meta.url), 'utf8'),
) as { version: string };

describe('platform detection in Node', () => {
  it('finds wasm SIMD and threads, so picks simd128-mt', () => {
    expect(wasmSimdSupported()).toBe(true);
    expect(detectFlavour()).toBe('simd128-mt');
  });
});

describe.each(NODE_FLAVOURS)('flavour %s: info', (flavour) => {
  const db = useLaneQL({ flavour });

  it('reports the flavour that was requested', () => {
    expect(db().info().flavour).toBe(flavour);
  });

  it('runs on the expected Highway target', () => {
    const { target, compiledTargets } = db().info();
    const expected = flavour === 'scalar' ? 'EMU128' : 'WASM';
    expect(target).toBe(expected);
    expect(compiledTargets).toEqual([expected]);
  });

  it('has threads only in the threaded flavour', () => {
    const expected = flavour === 'simd128-mt' && cpus().length > 1 ? 'many' : 'one';
    const threads = db().info().threads;
    if (expected === 'many') expect(threads).toBeGreaterThan(1);
    else expect(threads).toBe(1);
  });

  it("has the npm package's version", () => {
    expect(db().version()).toBe(packageJson.version);
    expect(db().info().version).toBe(packageJson.version);
  });

  it('returns a copy of info that callers cannot corrupt', () => {
    db().info().compiledTargets.push('X');
    expect(db().info().compiledTargets).not.toContain('X');
  });
});
