// LaneQL.createWorker(): the engine in a worker_threads Worker answers as the synchronous API
// does, rejects with LaneQLErrors (positions kept), and close() ends it.
import * as arrow from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaneQL, LaneQLError, type Flavour } from '../../bindings-js/dist/index.js';
import { expectUsable, rejectionOf, valuesOf } from './api-helpers.js';
import { NODE_FLAVOURS } from './flavours.js';

type LaneQLWorker = Awaited<ReturnType<typeof LaneQL.createWorker>>;

const QUERIES = [
  'SELECT * FROM t ORDER BY id',
  'SELECT k, COUNT(*) AS c, SUM(v) AS s, AVG(x) AS a, MIN(name) AS m FROM t GROUP BY k ORDER BY k',
  "SELECT id, name, day FROM t WHERE name LIKE '%ё%' ORDER BY id DESC LIMIT 5",
  'SELECT COUNT(*) AS n FROM t WHERE id < 0',
];
const CSV = 'a,b\n1,x\n2,"y, z"\n3,\n';

function tableT(): Parameters<LaneQL['register']>[1] {
  const n = 5000;
  return {
    id: Int32Array.from({ length: n }, (_, i) => i),
    k: Array.from({ length: n }, (_, i) => `key${i % 7}`),
    v: BigInt64Array.from({ length: n }, (_, i) => BigInt(i) ** 3n),
    x: Float64Array.from({ length: n }, (_, i) => i / 8),
    name: Array.from({ length: n }, (_, i) => (i % 3 === 0 ? null : `имя ёж ${i}`)),
    day: { type: 'DATE', values: Int32Array.from({ length: n }, (_, i) => 15_000 + (i % 400)) },
  };
}

describe.each(NODE_FLAVOURS)('flavour %s: createWorker()', (flavour: Flavour) => {
  let worker: LaneQLWorker | undefined;
  let db: LaneQL | undefined;
  beforeAll(async () => {
    [worker, db] = await Promise.all([LaneQL.createWorker({ flavour }), LaneQL.create({ flavour })]);
    await worker.register('t', tableT());
    db.register('t', tableT());
  });
  afterAll(async () => {
    db?.close();
    await worker?.close();
  });
  const w = (): LaneQLWorker => worker as LaneQLWorker;
  const sync = (): LaneQL => db as LaneQL;

  it('reports its flavour and version', async () => {
    const info = await w().info();
    expect(info.flavour).toBe(flavour);
    expect(info.target).toBe(sync().info().target);
    expect(info.memoryLimitMB).toBe(4096);
    expect(await w().version()).toBe(sync().version());
  });

  it.each(QUERIES)('answers %j as the synchronous API does', async (sql) => {
    const got = await w().query(sql);
    const expected = sync().query(sql);
    expect(got.numRows).toBe(expected.numRows);
    expect(got.columnNames).toEqual(expected.columnNames);
    expect(got.columnTypes).toEqual(expected.columnTypes);
    expect(got.toArray()).toEqual(expected.toArray());
    for (let c = 0; c < expected.columnNames.length; c++) {
      expect(valuesOf(got.column(c))).toEqual(valuesOf(expected.column(c)));
      expect(got.nullMask(c)).toEqual(expected.nullMask(c));
    }
  });

  it('reads CSV, generates hits and takes Arrow tables as the synchronous API does', async () => {
    expect(await w().registerCSV('csv', CSV)).toBe(sync().registerCSV('csv', CSV));
    const csvSql = 'SELECT a, b FROM csv ORDER BY a';
    expect((await w().query(csvSql)).toArray()).toEqual(sync().query(csvSql).toArray());
    await w().generateHits('hits', 3000, 5);
    sync().generateHits('hits', 3000, 5);
    const hitsSql = 'SELECT COUNT(*) AS n, SUM(UserID) AS u, COUNT(DISTINCT URL) AS d, MAX(Title) AS t FROM hits';
    expect((await w().query(hitsSql)).toArray()).toEqual(sync().query(hitsSql).toArray());
    const table = new arrow.Table({
      i: arrow.vectorFromArray([1, null, 3], new arrow.Int32()),
      s: arrow.vectorFromArray(['a', 'б', null], new arrow.Utf8()),
    });
    await w().register('arr', table);
    const result = await w().query('SELECT i, s FROM arr');
    expect(result.toArray()).toEqual([{ i: 1, s: 'a' }, { i: null, s: 'б' }, { i: 3, s: null }]);
    const back = await result.toArrow();
    expect(Array.from({ length: 3 }, (_, r) => back.getChild('s')?.get(r))).toEqual(['a', 'б', null]);
  });

  it('rejects with LaneQLError, keeping the message and position', async () => {
    const sql = 'SELECT id,\n  nope FROM t';
    const error = await rejectionOf(w().query(sql));
    expect(error).toBeInstanceOf(LaneQLError);
    expect(error.name).toBe('LaneQLError');
    expect(error.message).toBe('binder error at line 2, column 3: column "nope" not found in table "t"');
    expect([error.line, error.column]).toEqual([2, 3]);
    expect((await rejectionOf(w().query('SELECT * FROM missing'))).message).toMatch(/table "missing" does not exist/);
    expect((await rejectionOf(w().register('bad', { long_col: [1, 2], short_col: [1] }))).message).toMatch(/short_col/);
    const csvError = await rejectionOf(w().registerCSV('bad', 'a\n1\nx\n', { columns: { a: 'INTEGER' } }));
    expect([csvError.line, csvError.column]).toEqual([3, 1]);
    await rejectionOf(w().generateHits('bad', -1));
    await expectUsable(w());
    expect((await w().query('SELECT COUNT(*) AS n FROM t')).toArray()).toEqual([{ n: 5000n }]);
  });

  it('answers concurrent calls, each with its own result', async () => {
    const sqls = Array.from({ length: 8 }, (_, i) => `SELECT COUNT(*) AS n FROM t WHERE id < ${i * 100}`);
    const results = await Promise.all(sqls.map((sql) => w().query(sql)));
    expect(results.map((r) => r.toArray()[0].n)).toEqual(sqls.map((_, i) => BigInt(i * 100)));
  });
});

describe('createWorker() lifecycle', () => {
  it('rejects an unknown flavour with LaneQLError', async () => {
    const error = await rejectionOf(LaneQL.createWorker({ flavour: 'wasm' as Flavour }));
    expect(error.message).toMatch(/unknown flavour/);
  });

  it('closes: twice is fine, later calls reject with LaneQLError', async () => {
    const worker = await LaneQL.createWorker({ flavour: 'simd128' });
    expect((await worker.query('SELECT 40 + 2 AS answer')).toArray()).toEqual([{ answer: 42 }]);
    await worker.close();
    await worker.close();
    for (const call of [
      () => worker.query('SELECT 1'),
      () => worker.register('t', { a: [1] }),
      () => worker.registerCSV('t', 'a\n1\n'),
      () => worker.generateHits('h', 10),
      () => worker.info(),
      () => worker.version(),
    ]) {
      expect((await rejectionOf(call())).message).toMatch(/closed/);
    }
  });
});
