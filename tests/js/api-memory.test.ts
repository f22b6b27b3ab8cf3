// memoryLimitMB: tables and queries beyond it are a LaneQLError that says "memory limit", the
// memory of a failed call comes back, and the database keeps working; bad limits reject create().
import { describe, expect, it } from 'vitest';
import { LaneQL } from '../../bindings-js/dist/index.js';
import { catchLaneQLError, expectUsable, rejectionOf } from './api-helpers.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

const LIMIT_MB = 64;
const GROUPS = 3_000_000; // 12 MB of INTEGER; its GROUP BY result alone is over 100 MB

describe.each(NODE_FLAVOURS)(`flavour %s: memoryLimitMB ${LIMIT_MB}`, (flavour) => {
  const db = useLaneQL({ flavour, memoryLimitMB: LIMIT_MB });

  it('reports the limit', () => {
    expect(db().info().memoryLimitMB).toBe(LIMIT_MB);
  });

  it('refuses a table beyond the limit, and keeps working', async () => {
    const huge = new Float64Array((100 * 2 ** 20) / 8); // 100 MB
    huge[huge.length - 1] = 1;
    const error = catchLaneQLError(() => db().register('huge', { x: huge }));
    expect(error.message).toMatch(/memory limit/);
    catchLaneQLError(() => db().query('SELECT COUNT(*) FROM huge'));
    const strings = Array.from({ length: 10 }, (_, i) => `${i}`.padStart(7_000_000, '#')); // 70 MB of text
    expect(catchLaneQLError(() => db().register('huge', { s: strings })).message).toMatch(/memory limit/);
    await expectUsable(db());
  });

  it('fails a query that needs more than the limit, and keeps working', async () => {
    const x = Int32Array.from({ length: GROUPS }, (_, i) => i);
    db().register('many', { x });
    const sql = 'SELECT x, COUNT(*) AS c, SUM(x) AS s, MIN(x) AS lo, MAX(x) AS hi, AVG(x) AS a FROM many GROUP BY x';
    // Twice: what the first failure allocated must have been given back for the second to fail
    // the same way (and for the 16 MB table below to fit).
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(catchLaneQLError(() => db().query(sql)).message).toMatch(/memory limit/);
    }
    const total = db().query('SELECT COUNT(*) AS n, SUM(x) AS s FROM many').toArray();
    expect(total).toEqual([{ n: BigInt(GROUPS), s: BigInt((GROUPS * (GROUPS - 1)) / 2) }]);
    const small = db().query('SELECT x % 10 AS k, COUNT(*) AS c FROM many WHERE x < 1000 GROUP BY k ORDER BY k');
    expect(small.numRows).toBe(10);
    expect(new Set(small.column('c') as BigInt64Array)).toEqual(new Set([100n]));
    db().register('more', { y: new Float64Array(2_000_000).fill(0.5) });
    expect(db().query('SELECT SUM(y) AS s FROM more').toArray()).toEqual([{ s: 1_000_000 }]);
    await expectUsable(db());
  });

  it('fails generateHits beyond the limit, and keeps working', async () => {
    expect(catchLaneQLError(() => db().generateHits('big_hits', 1_000_000)).message).toMatch(/memory limit/);
    catchLaneQLError(() => db().query('SELECT COUNT(*) FROM big_hits'));
    db().generateHits('small_hits', 1000);
    expect(db().query('SELECT COUNT(*) AS n FROM small_hits').toArray()).toEqual([{ n: 1000n }]);
    await expectUsable(db());
  });
});

describe('memoryLimitMB option', () => {
  it.each([0, -1, 15, 4097, 5000, NaN, Infinity, '64'])('rejects %s', async (memoryLimitMB) => {
    const error = await rejectionOf(LaneQL.create({ flavour: 'simd128', memoryLimitMB: memoryLimitMB as number }));
    expect(error.message).toMatch(/memory/i);
  });

  it.each(NODE_FLAVOURS)('%s: defaults to 4096 and accepts the smallest limit, 16', async (flavour) => {
    const byDefault = await LaneQL.create({ flavour });
    try {
      expect(byDefault.info().memoryLimitMB).toBe(4096);
    } finally {
      byDefault.close();
    }
    const smallest = await LaneQL.create({ flavour, memoryLimitMB: 16 });
    try {
      expect(smallest.info().memoryLimitMB).toBe(16);
      await expectUsable(smallest);
      expect(catchLaneQLError(() => smallest.register('big', { x: new Float64Array(4 * 2 ** 20) })).message).toMatch(/memory limit/);
      await expectUsable(smallest);
    } finally {
      smallest.close();
    }
  });
});
