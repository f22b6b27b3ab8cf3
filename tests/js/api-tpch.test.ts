// generateTpch(): TPC-H's 8 tables made in the engine, the same rows as the native
// `laneql gen tpch --sf 0.01 --seed 1`: their row counts, TPC-H Q3's answer and its joins'
// profile counters as the native CLI gives them on that data, and a bad scale factor refused
// with the module still usable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaneQL, type Flavour } from '../../bindings-js/dist/index.js';
import { catchLaneQLError, expectUsable } from './api-helpers.js';
import { NODE_FLAVOURS } from './flavours.js';

// `laneql gen tpch --sf 0.01 --seed 1`, counted by the native CLI.
const ROWS_SF_001: Record<string, number> = {
  region: 5, nation: 25, supplier: 100, customer: 1500, part: 2000, partsupp: 8000, orders: 15000, lineitem: 60033,
};

// TPC-H Q3 (../shared/tpch/queries/q03.sql).
const Q3 = `SELECT l_orderkey, sum(l_extendedprice * (1 - l_discount)) AS revenue, o_orderdate, o_shippriority
FROM customer, orders, lineitem
WHERE c_mktsegment = 'BUILDING' AND c_custkey = o_custkey AND l_orderkey = o_orderkey
  AND o_orderdate < DATE '1995-03-15' AND l_shipdate > DATE '1995-03-15'
GROUP BY l_orderkey, o_orderdate, o_shippriority
ORDER BY revenue DESC, o_orderdate
LIMIT 10`;

// The native CLI's answer (`--format json`) on that data: orderkey, revenue, orderdate, priority.
const Q3_NATIVE: [number, string, string, number][] = [
  [54663, '301856.4338', '1995-02-24', 0], [40289, '258857.3446', '1995-03-13', 0],
  [28261, '215872.0373', '1995-03-01', 0], [27299, '212336.0084', '1995-02-23', 0],
  [72, '209809.4982', '1995-02-09', 0], [44806, '208346.6475', '1995-03-01', 0],
  [12130, '200392.5422', '1995-02-07', 0], [46088, '196850.7687', '1995-02-23', 0],
  [20387, '196319.9290', '1995-02-17', 0], [42951, '181217.4701', '1995-03-08', 0],
];

// Its 'hash join probe' spans in the native profile (`laneql --profile`), in trace order: probe
// rows, build rows, rows the key filter dropped, matches. Morsels have a fixed size, so the
// counts do not depend on the thread count.
const Q3_NATIVE_JOINS = [
  { rows: 7251, build: 315, filtered: 5725, matches: 1513 },
  { rows: 32595, build: 1513, filtered: 32141, matches: 271 },
];

describe('generateTpch()', () => {
  const dbs = new Map<Flavour, LaneQL>();
  const generated = new Map<Flavour, Record<string, number>>();
  beforeAll(async () => {
    for (const flavour of NODE_FLAVOURS) {
      const db = await LaneQL.create({ flavour });
      dbs.set(flavour, db);
      generated.set(flavour, db.generateTpch(0.01));
    }
  });
  afterAll(() => {
    for (const db of dbs.values()) db.close();
  });
  const on = (flavour: Flavour): LaneQL => dbs.get(flavour) as LaneQL;

  it.each(NODE_FLAVOURS)('%s: registers the 8 tables with the native row counts', (flavour) => {
    expect(generated.get(flavour)).toEqual(ROWS_SF_001);
    for (const [table, rows] of Object.entries(ROWS_SF_001)) {
      expect(on(flavour).query(`SELECT count(*) AS n FROM ${table}`).toArray()).toEqual([{ n: BigInt(rows) }]);
    }
  });

  it.each(NODE_FLAVOURS)('%s: Q3 answers as the native CLI, with the same join counters', (flavour) => {
    const result = on(flavour).query(Q3, { profile: true });
    const rows = result.toArray().map((r) => [
      Number(r.l_orderkey), r.revenue, (r.o_orderdate as Date).toISOString().slice(0, 10), Number(r.o_shippriority),
    ]);
    expect(rows).toEqual(Q3_NATIVE);
    const joins = (result.profile?.traceEvents ?? [])
      .filter((e) => e.ph === 'X' && e.name === 'hash join probe')
      .map((e) => {
        const a = e.args as { rows: number; build?: number; filtered?: number; matches?: number };
        return { rows: a.rows, build: a.build, filtered: a.filtered, matches: a.matches };
      });
    expect(joins).toEqual(Q3_NATIVE_JOINS);
  });

  it('a join over the generated keys finds every line its order', () => {
    const db = on(NODE_FLAVOURS[1]);
    expect(db.query('SELECT count(*) AS n FROM lineitem JOIN orders ON l_orderkey = o_orderkey').toArray())
      .toEqual([{ n: BigInt(ROWS_SF_001.lineitem) }]);
  });

  it('another seed gives other rows; a subset of tables only those', async () => {
    const db = await LaneQL.create({ flavour: 'simd128' });
    try {
      expect(db.generateTpch(0.01, 7, { tables: ['Orders'] })).toEqual({ orders: 15000 });
      const seven = db.query('SELECT sum(o_totalprice) AS s FROM orders').toArray();
      db.generateTpch(0.01, 1, { tables: ['orders'] });
      expect(db.query('SELECT sum(o_totalprice) AS s FROM orders').toArray()).not.toEqual(seven);
      expect(catchLaneQLError(() => db.query('SELECT count(*) FROM lineitem')).message).toMatch(/lineitem/);
    } finally {
      db.close();
    }
  });

  it('refuses a bad scale factor, registering nothing, and the database stays usable', async () => {
    const db = await LaneQL.create({ flavour: 'simd128' });
    try {
      for (const bad of [0, -1, Number.NaN, Infinity, '0.1' as unknown as number]) {
        expect(catchLaneQLError(() => db.generateTpch(bad)).message).toMatch(/scale factor must be a number > 0/);
      }
      // Past what the engine allows: refused by the engine's own check, before any table is made.
      expect(catchLaneQLError(() => db.generateTpch(1e9)).message).toMatch(/scale factor/);
      expect(catchLaneQLError(() => db.query('SELECT count(*) FROM region')).message).toMatch(/region/);
      expect(catchLaneQLError(() => db.generateTpch(0.01, 1, { tables: ['nope'] })).message).toMatch(/unknown TPC-H table 'nope'/);
      expect(catchLaneQLError(() => db.generateTpch(0.01, -2)).message).toMatch(/seed/);
      await expectUsable(db);
      expect(db.generateTpch(0.01, 1, { tables: ['region'] })).toEqual({ region: 5 });
    } finally {
      db.close();
    }
  });

  it('through a Worker too', async () => {
    const db = await LaneQL.createWorker({ flavour: 'simd128' });
    try {
      expect(await db.generateTpch(0.01)).toEqual(ROWS_SF_001);
      const result = await db.query('SELECT count(*) AS n FROM lineitem JOIN orders ON l_orderkey = o_orderkey');
      expect(result.toArray()).toEqual([{ n: BigInt(ROWS_SF_001.lineitem) }]);
      await expect(db.generateTpch(-1)).rejects.toThrow(/scale factor/);
      await expectUsable(db);
    } finally {
      await db.close();
    }
  });
});
