// Joins over a table of more than 2^20 rows, under a tight memoryLimitMB. TPC-H SF 1 (lineitem
// 6 M rows, orders 1.5 M) once trapped with `RuntimeError: memory access out of bounds` in 12 of
// its 22 queries: the optimizer's column sample (table_statistics.cc) computed its strata as
// i * rows / 4096 in size_t, 32 bits in wasm32, which wraps from 2^20 rows on, and read rows far
// past the column's end. Each query here must answer correctly or fail with the clean
// out-of-memory LaneQLError, never trap, and the database must keep working.
import { describe, expect, it } from 'vitest';
import { LaneQLError } from '../../bindings-js/dist/index.js';
import { expectUsable } from './api-helpers.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

const ROWS = 2 ** 21 + 12_345; // i * ROWS passes 2^32 from stratum 2,036 of 4,096 on
const LIMIT_MB = 128;
const DIM = 1000; // dim.y = 0, 3, 6, ... (all below ROWS)

/** Runs sql; its rows, or the LaneQLError's message (anything else is rethrown: a trap fails the test). */
function answerOrMemoryError(run: () => { toArray(): unknown[] }): unknown[] | string {
  try {
    return run().toArray();
  } catch (error) {
    expect(error).toBeInstanceOf(LaneQLError); // not a RuntimeError (memory access out of bounds)
    expect((error as Error).message).toMatch(/out of memory|memory limit/);
    return (error as Error).message;
  }
}

describe.each(NODE_FLAVOURS)(`flavour %s: joins over ${ROWS} rows, memoryLimitMB ${LIMIT_MB}`, (flavour) => {
  const db = useLaneQL({ flavour, memoryLimitMB: LIMIT_MB });

  it('answers joins whose estimates sample a column of over 2^20 rows', async () => {
    db().register('big', {
      k: Int32Array.from({ length: ROWS }, (_, i) => i),
      s: Array.from({ length: ROWS }, (_, i) => `c${i % 5}`),
    });
    db().register('dim', {
      y: Int32Array.from({ length: DIM }, (_, j) => 3 * j),
      label: Array.from({ length: DIM }, (_, j) => `l${j % 4}`),
    });
    // Each must answer: they need a few MB beyond the tables. Filters on an INTEGER and a
    // VARCHAR column of the big table (the sample reads both kinds), as in TPC-H Q3, Q4, Q12.
    const cases: [string, unknown[]][] = [
      ['SELECT COUNT(*) AS n FROM big JOIN dim ON big.k = dim.y', [{ n: BigInt(DIM) }]],
      ["SELECT COUNT(*) AS n FROM big JOIN dim ON big.k = dim.y WHERE big.s = 'c3'", [{ n: BigInt(DIM / 5) }]],
      ['SELECT COUNT(*) AS n FROM big JOIN dim ON big.k = dim.y WHERE big.k < 600', [{ n: 200n }]],
      [
        "SELECT dim.label, COUNT(*) AS n FROM dim JOIN big ON dim.y = big.k WHERE big.s IN ('c0', 'c1') " +
          'GROUP BY dim.label ORDER BY dim.label',
        [
          { label: 'l0', n: 100n },
          { label: 'l1', n: 100n },
          { label: 'l2', n: 100n },
          { label: 'l3', n: 100n },
        ],
      ],
    ];
    for (const [sql, expected] of cases) {
      expect(db().query(sql).toArray(), sql).toEqual(expected);
    }
    // The big table joined with itself may not fit in 128 MB: an answer or a clean error.
    const self = answerOrMemoryError(() =>
      db().query("SELECT COUNT(*) AS n FROM big a JOIN big b ON a.k = b.k WHERE a.s = 'c1'"),
    );
    if (typeof self !== 'string') expect(self).toEqual([{ n: BigInt(Math.floor((ROWS - 2) / 5) + 1) }]);
    await expectUsable(db());
    expect(db().query('SELECT COUNT(*) AS n FROM dim WHERE y < 30').toArray()).toEqual([{ n: 10n }]);
  });
});
