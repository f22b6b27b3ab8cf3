import { describe, expect, it } from 'vitest';
import { LaneQL, LaneQLError, type Flavour } from '../../bindings-js/dist/index.js';
import { bindingsOf } from '../../bindings-js/dist/laneql.js';
import { uniformFloat64 } from './data.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';
import { referenceSumFloat64 } from './reference.js';

describe('create() options', () => {
  it.each(['simd128-mt-web', 'simd128-mt-node', 'wasm', ''])('rejects flavour %j', async (name) => {
    const created = LaneQL.create({ flavour: name as Flavour });
    await expect(created).rejects.toBeInstanceOf(LaneQLError);
    await expect(created).rejects.toThrow(/unknown flavour/);
  });

  it.each([0, -1, 1.5, NaN])('rejects threads %s', async (threads) => {
    await expect(LaneQL.create({ flavour: 'simd128', threads })).rejects.toBeInstanceOf(LaneQLError);
  });

  it('uses the threads it is given, at most what the module has', async () => {
    const db = await LaneQL.create({ flavour: 'simd128-mt', threads: 1 });
    try {
      const values = uniformFloat64(10000, 3);
      expect(db.sumFloat64(values)).toBe(referenceSumFloat64(values));
    } finally {
      db.close();
    }
  });
});

describe.each(NODE_FLAVOURS)('flavour %s: errors', (flavour) => {
  const db = useLaneQL({ flavour });

  it('refuses an allocation wasm32 memory cannot hold, and keeps working', () => {
    const bindings = bindingsOf(db());
    for (const bytes of [4.2e9, 5e9, 2 ** 52]) {
      expect(() => bindings.alloc(bytes)).toThrow(LaneQLError);
      expect(() => bindings.alloc(bytes)).toThrow(/memory/);
    }
    const values = uniformFloat64(50000, 8);
    expect(db().sumFloat64(values)).toBe(referenceSumFloat64(values));
  });

  it('rejects bad per-call threads and out-of-range bigints', () => {
    expect(() => db().sumFloat64([1], { threads: 0 })).toThrow(LaneQLError);
    expect(() => db().sumInt64([1n], { threads: 2.5 })).toThrow(LaneQLError);
    expect(() => db().sumInt64([2n ** 63n])).toThrow(LaneQLError);
    expect(() => db().sumInt64([-(2n ** 63n) - 1n])).toThrow(LaneQLError);
  });
});

describe.each(NODE_FLAVOURS)('flavour %s: close()', (flavour) => {
  it('makes every later call throw LaneQLError, and may be called twice', async () => {
    const db = await LaneQL.create({ flavour });
    db.close();
    db.close();
    for (const call of [
      () => db.version(),
      () => db.info(),
      () => db.sumFloat64([1, 2]),
      () => db.sumInt64([1n]),
    ]) {
      expect(call).toThrow(LaneQLError);
      expect(call).toThrow(/closed/);
    }
  });
});

describe('LaneQLError', () => {
  it('is an Error with a name and an optional position', () => {
    const error = new LaneQLError('bad token', { line: 2, column: 7 });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('LaneQLError');
    expect([error.line, error.column]).toEqual([2, 7]);
    expect(new LaneQLError('x').line).toBeUndefined();
  });
});
