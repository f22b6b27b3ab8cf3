// Query limits in the package: query(sql, { timeoutMs, memoryLimitMB }) and the database's
// queryMemoryLimitMB. A query over a limit throws a LaneQLError whose message says which limit
// (and for memory, what grew); the module stays usable. Timings are never asserted tightly.
import { describe, expect, it } from 'vitest';
import { LaneQL, LaneQLError } from '../../bindings-js/dist/index.js';
import { catchLaneQLError, expectUsable } from './api-helpers.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

const ROWS = 200_000;
const KEYS = Int32Array.from({ length: ROWS }, (_, i) => i); // all distinct: a large GROUP BY
const URLS = Array.from({ length: ROWS }, (_, i) => `https://example.org/page/${(i * 7919) % ROWS}`);
// Tens of milliseconds at least: 200,000 string groups, then a sort of them.
const SLOW = 'SELECT u, COUNT(*) AS c FROM t GROUP BY u ORDER BY u DESC';
const MANY_GROUPS = 'SELECT k FROM t GROUP BY k';

describe.each(NODE_FLAVOURS)('flavour %s: query limits', (flavour) => {
  const db = useLaneQL({ flavour });

  it('defaults: 80 % of memoryLimitMB per query, no timeout', () => {
    expect(db().info().memoryLimitMB).toBe(4096);
    expect(db().info().queryMemoryLimitMB).toBe(3276);
    db().register('t', { k: KEYS, u: URLS });  // the table of the tests below
    expect(db().query(MANY_GROUPS).numRows).toBe(ROWS);
  });

  it('timeoutMs: a slow query times out, the next runs, a generous timeout changes nothing', async () => {
    const error = catchLaneQLError(() => db().query(SLOW, { timeoutMs: 1 }));
    expect(error.message).toBe('query timed out after 1 ms');
    await expectUsable(db());
    const full = db().query(SLOW, { timeoutMs: 600_000 });
    expect(full.numRows).toBe(ROWS);
    expect(full.toArray()[0]).toEqual({ u: 'https://example.org/page/99999', c: 1n });
  });

  it('memoryLimitMB per query: fails with the limit and what grew, 0 lifts it', async () => {
    const error = catchLaneQLError(() => db().query(MANY_GROUPS, { memoryLimitMB: 1 }));
    // With threads, the hash table and the aggregate states grow side by side: either may cross first.
    expect(error.message).toMatch(
      /^out of memory: the query needs more than the memory limit of 1 MiB \(while growing the (GROUP BY hash table|aggregate states)\)$/,
    );
    await expectUsable(db());
    expect(db().query(MANY_GROUPS, { memoryLimitMB: 0 }).numRows).toBe(ROWS);
    const distinct = catchLaneQLError(() => db().query('SELECT COUNT(DISTINCT u) FROM t', { memoryLimitMB: 1 }));
    expect(distinct.message).toMatch(/memory limit of 1 MiB \(while growing a COUNT\(DISTINCT\) set\)$/);
    expect(db().query('SELECT COUNT(DISTINCT u) AS n FROM t').toArray()).toEqual([{ n: BigInt(ROWS) }]);
  });

  it('rejects bad limit options', () => {
    for (const options of [{ timeoutMs: -1 }, { timeoutMs: 1.5 }, { timeoutMs: '5' }, { memoryLimitMB: 0.5 },
      { memoryLimitMB: 5000 }]) {
      const error = catchLaneQLError(() => db().query('SELECT 1', options as never));
      expect(error.message).toMatch(/timeoutMs|memoryLimitMB/);
    }
  });
});

describe('queryMemoryLimitMB', () => {
  const db = useLaneQL({ flavour: 'simd128', queryMemoryLimitMB: 2 });

  it('applies to every query of the database, and QueryOptions overrides it', async () => {
    expect(db().info().queryMemoryLimitMB).toBe(2);
    db().register('t', { k: KEYS });
    const error = catchLaneQLError(() => db().query(MANY_GROUPS));
    expect(error.message).toMatch(/^out of memory: the query needs more than the memory limit of 2 MiB \(while /);
    const total = db().query('SELECT COUNT(*) AS n, SUM(k) AS s FROM t').toArray();
    expect(total).toEqual([{ n: BigInt(ROWS), s: BigInt((ROWS * (ROWS - 1)) / 2) }]);
    expect(db().query(MANY_GROUPS, { memoryLimitMB: 64 }).numRows).toBe(ROWS);
    await expectUsable(db());
  });

  it('is checked at create()', async () => {
    for (const queryMemoryLimitMB of [-1, 1.5, 4097]) {
      await expect(LaneQL.create({ flavour: 'simd128', queryMemoryLimitMB })).rejects.toBeInstanceOf(LaneQLError);
    }
  });
});
