// info() and the threads option; close(): idempotent, and every later call a LaneQLError.
import { cpus } from 'node:os';
import { describe, expect, it } from 'vitest';
import { LaneQL } from '../../bindings-js/dist/index.js';
import { catchLaneQLError } from './api-helpers.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

const GROUP_SQL = 'SELECT k, COUNT(*) AS c, SUM(v) AS s, MIN(w) AS m FROM g GROUP BY k ORDER BY k';

function groupTable(db: LaneQL): void {
  const n = 60_000; // big enough for the threaded flavour to split it across threads
  db.register('g', {
    k: Int32Array.from({ length: n }, (_, i) => (i * 7919) % 1000),
    v: BigInt64Array.from({ length: n }, (_, i) => BigInt(i) * 1_000_003n),
    w: Array.from({ length: n }, (_, i) => `w${(i * 31) % 5000}`),
  });
}

describe.each(NODE_FLAVOURS)('flavour %s: info()', (flavour) => {
  const db = useLaneQL({ flavour });

  it('has every field, of its type', () => {
    const info = db().info();
    expect(typeof info.version).toBe('string');
    expect(info.version).toBe(db().version());
    expect(info.flavour).toBe(flavour);
    expect(info.target).toBe(flavour === 'scalar' ? 'EMU128' : 'WASM');
    expect(info.compiledTargets).toEqual([info.target]);
    expect(Number.isInteger(info.threads) && info.threads >= 1).toBe(true);
    expect(info.memoryLimitMB).toBe(4096);
  });

  it('honours the threads option, up to what the module has', async () => {
    const most = db().info().threads;
    if (flavour !== 'simd128-mt') expect(most).toBe(1);
    else if (cpus().length > 1) expect(most).toBeGreaterThan(1);
    groupTable(db());
    const expected = db().query(GROUP_SQL).toArray();
    expect(expected).toHaveLength(1000);
    for (const threads of [1, 2, 64]) {
      // 64: more than any module has, so clamped to what it has.
      const other = await LaneQL.create({ flavour, threads });
      try {
        expect(other.info().threads, `threads: ${threads}`).toBe(Math.min(threads, most));
        groupTable(other);
        expect(other.query(GROUP_SQL).toArray()).toEqual(expected);
      } finally {
        other.close();
      }
    }
    const auto = await LaneQL.create({ flavour, threads: 'auto' });
    try {
      expect(auto.info().threads).toBe(most);
    } finally {
      auto.close();
    }
  });
});

describe.each(NODE_FLAVOURS)('flavour %s: close()', (flavour) => {
  it('may be called twice, and makes every later call throw LaneQLError', async () => {
    const db = await LaneQL.create({ flavour });
    db.register('t', { a: [1, 2, 3] });
    expect(db.query('SELECT SUM(a) AS s FROM t').toArray()).toEqual([{ s: 6n }]);
    db.close();
    db.close();
    const calls: [string, () => unknown][] = [
      ['register', () => db.register('u', { a: [1] })],
      ['registerCSV', () => db.registerCSV('u', 'a\n1\n')],
      ['generateHits', () => db.generateHits('hits', 10)],
      ['query', () => db.query('SELECT 1')],
      ['query of a table', () => db.query('SELECT * FROM t')],
      ['info', () => db.info()],
      ['version', () => db.version()],
      ['sumFloat64', () => db.sumFloat64([1, 2])],
      ['sumInt64', () => db.sumInt64([1n])],
    ];
    for (const [name, call] of calls) {
      expect(catchLaneQLError(call).message, name).toMatch(/closed/);
    }
  });
});
