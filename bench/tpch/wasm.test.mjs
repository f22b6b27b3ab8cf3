// The pure parts of bench/tpch/wasm.mjs and wasm_engine.mjs (no engine, no data):
//   node --test bench/tpch/wasm.test.mjs
import assert from 'node:assert/strict';
import path from 'node:path';
import test from 'node:test';
import {
  ENGINES, UsageError, compareSchemas, defaultQueryDir, engineEntry, engineOrder, geomeans, parseArgs, parseQueryList,
  renderMarkdown, sfFromFolder,
} from './wasm.mjs';
import { splitWith, tpchShape } from './wasm_engine.mjs';

test('query lists', () => {
  assert.deepEqual(parseQueryList('1,3-5'), [1, 3, 4, 5]);
  assert.deepEqual(parseQueryList('5,1, 2-3 ,3'), [1, 2, 3, 5]);
  assert.equal(parseQueryList(null).length, 22);
  assert.throws(() => parseQueryList('0'), UsageError);
  assert.throws(() => parseQueryList('23'), UsageError);
  assert.throws(() => parseQueryList('4-2'), UsageError);
  assert.throws(() => parseQueryList('x'), UsageError);
});

test('arguments', () => {
  const a = parseArgs(['--data', 'build/tpch/sf1', '--query-dir', '/q', '--repeat', '5', '--out', 'o.json',
    '--queries', '1,3-5', '--timeout-ms', '1000', '--threads', '2'], {});
  assert.equal(a.data, path.resolve('build/tpch/sf1'));
  assert.equal(a.queryDir, '/q');
  assert.equal(a.repeat, 5);
  assert.equal(a.out, path.resolve('o.json'));
  assert.deepEqual(a.queries, [1, 3, 4, 5]);
  assert.equal(a.timeoutMs, 1000);
  assert.equal(a.threads, 2);
  const d = parseArgs(['--data=x/sf0.1'], {});
  assert.equal(d.repeat, 3);
  assert.equal(d.threads, 1);
  assert.equal(d.timeoutMs, 600000);
  assert.equal(d.out, null);
  assert.equal(d.queries.length, 22);
  assert.equal(d.data, path.resolve('x/sf0.1'));
  assert.throws(() => parseArgs([], {}), /--data/);
  assert.throws(() => parseArgs(['--data', 'x', '--repeat', '0'], {}), UsageError);
  assert.throws(() => parseArgs(['--data', 'x', '--repeat', '1.5'], {}), UsageError);
  assert.throws(() => parseArgs(['--data', '--repeat', '2'], {}), /needs a value/);
  assert.throws(() => parseArgs(['--data', 'x', '--bogus'], {}), /unknown argument/);
  assert.equal(parseArgs(['--help'], {}).help, true);
  assert.equal(defaultQueryDir({ LANEQL_TPCH_DIR: '/t/q' }), '/t/q');
  assert.equal(defaultQueryDir({}, '/work/main'), '/work/shared/tpch/queries');
});

test('scale factor from the folder name', () => {
  assert.equal(sfFromFolder('build/tpch/sf1'), 1);
  assert.equal(sfFromFolder('build/tpch/sf0.01/'), 0.01);
  assert.equal(sfFromFolder('/data/sf10'), 10);
  assert.equal(sfFromFolder('/data/tpch'), null);
});

test('engine order rotates per query', () => {
  assert.deepEqual(engineOrder(1), ['duckdb-wasm', 'laneql-wasm']);
  assert.deepEqual(engineOrder(2), ['laneql-wasm', 'duckdb-wasm']);
  const firsts = [1, 2, 3, 4].map((q) => engineOrder(q)[0]);
  assert.deepEqual(new Set(firsts), new Set(ENGINES));
  for (let q = 1; q <= 22; q++) assert.deepEqual([...engineOrder(q)].sort(), [...ENGINES].sort());
});

test('column types compared table by table', () => {
  const L = { t: [['a', 'BIGINT'], ['b', 'DOUBLE']] };
  assert.deepEqual(compareSchemas(L, { t: [['a', 'BIGINT'], ['b', 'DOUBLE']] }, ['t']), []);
  assert.deepEqual(compareSchemas(L, { t: [['a', 'BIGINT'], ['b', 'DECIMAL(15,2)']] }, ['t']),
    ['t.b: laneql-wasm b DOUBLE, duckdb-wasm b DECIMAL(15,2)']);
  assert.equal(compareSchemas(L, { t: [['a', 'BIGINT']] }, ['t']).length, 2);
  assert.equal(compareSchemas(L, {}, ['t']).length, 3);
});

const report = {
  sf: 0.1, repeat: 3, machine: { cpu: 'cpu', logicalCpus: 2, node: 'v20' },
  peakRssMb: { 'laneql-wasm': 100, 'duckdb-wasm': 200 },
  passes: [{ engines: {
    'laneql-wasm': { ok: true, info: { version: '0.1', flavour: 'simd128-mt', threads: 1, loadMs: { a: 1000, b: 500 }, via: 'registerCSV' } },
    'duckdb-wasm': { ok: true, info: { package: '@duckdb/duckdb-wasm 1.32.0', duckdb: 'v1.4.3', threads: '1', loadMs: { a: 2000 }, via: 'read_csv' } },
  } }],
  results: [
    { q: 1, engines: { 'laneql-wasm': engineEntry([10, 30, 20], 4), 'duckdb-wasm': engineEntry([40, 40, 50], 4) }, check: 'ok', notes: [] },
    { q: 2, engines: { 'laneql-wasm': engineEntry([5, 5, 5], 100), 'duckdb-wasm': engineEntry([5, 6, 4], 100) }, check: 'MISMATCH: 99 rows, DuckDB 100', notes: [] },
    { q: 3, engines: { 'laneql-wasm': { error: 'unsupported thing' }, 'duckdb-wasm': engineEntry([7], 10) }, check: 'not checked: laneql-wasm error', notes: [] },
  ],
};

test('engine entries and geometric means', () => {
  const e = engineEntry([10, 30, 20], 4);
  assert.deepEqual(e, { medianMs: 20, bestMs: 10, numRows: 4, timesMs: [10, 30, 20] });
  const g = geomeans(report.results);
  assert.equal(g.n, 2);
  assert.ok(Math.abs(g.laneql - Math.sqrt(20 * 5)) < 1e-9);
  assert.ok(Math.abs(g.duckdb - Math.sqrt(40 * 5)) < 1e-9);
  assert.ok(Math.abs(g.ratio - Math.sqrt(0.5)) < 1e-9);
  assert.ok(Math.abs(geomeans(report.results, 'bestMs').laneql - Math.sqrt(10 * 5)) < 1e-9);
  assert.equal(geomeans([report.results[2]]), null);
});

test('the Markdown table', () => {
  const md = renderMarkdown(report);
  assert.match(md, /^## TPC-H SF 0\.1 in Node: laneql-wasm vs duckdb-wasm/);
  assert.match(md, /\| 1 \| 20\.0 \| 40\.0 \| 0\.50 \| ok \|/);
  assert.match(md, /\| 2 \| 5\.00 \| 5\.00 \| 1\.00 \| \*\*MISMATCH\*\* \|/);
  assert.match(md, /\| 3 \| error \| 7\.00 \| - \| not checked \|/);
  assert.match(md, /\| \*\*geomean \(median\)\*\* \| \*\*(10\.0|10\.00|9\.99)\*\* \| \*\*14\.1\*\* \| \*\*0\.71\*\* \| 2 of 3 queries/);
  assert.match(md, /- q2: MISMATCH: 99 rows, DuckDB 100/);
  assert.match(md, /- q3: not checked: laneql-wasm error; laneql-wasm: unsupported thing/);
  assert.match(md, /Answers: 1 of 3 checked ok\./);
  assert.match(md, /flavour simd128-mt, 1 thread\(s\); load 1\.5 s/);
  assert.match(md, /peak RSS 200 MB/);
  for (const line of md.split('\n').filter((l) => l.startsWith('| '))) assert.equal(line.split(' | ').length, 5, line);
});

test('the JSON shape bench/peers/wasm.py reads', () => {
  for (const r of report.results) {
    assert.equal(typeof r.q, 'number');
    for (const x of Object.values(r.engines)) {
      if (!x.error) for (const k of ['medianMs', 'bestMs', 'numRows', 'timesMs']) assert.ok(k in x, k);
    }
    assert.ok(/^(ok|ok \(ties\)|MISMATCH: .+|not checked: .+)$/.test(r.check), r.check);
  }
});

test('a WITH clause in front of the SELECT (q15)', () => {
  const q15 = `WITH revenue (supplier_no, total_revenue) AS (
  SELECT l_suppkey, sum(x) FROM lineitem GROUP BY l_suppkey)
SELECT s_suppkey, total_revenue FROM supplier, revenue
WHERE s_suppkey = supplier_no AND total_revenue = (SELECT max(total_revenue) FROM revenue)
ORDER BY s_suppkey;`;
  const { prefix, select } = splitWith(q15);
  assert.match(prefix, /^WITH revenue .*GROUP BY l_suppkey\)\n$/s);
  assert.match(select, /^SELECT s_suppkey, total_revenue FROM/);
  assert.deepEqual(splitWith(' SELECT 1'), { prefix: '', select: 'SELECT 1' });
  assert.equal(splitWith("WITH t AS (SELECT ')SELECT' AS x) SELECT * FROM t").select, 'SELECT * FROM t');
  const shape = tpchShape(q15);
  assert.deepEqual(shape.orderKeys, ['s_suppkey']);
  assert.equal(shape.limit, null);
  const full = shape.fullAnswerSql(['s_suppkey', 'total_revenue']);
  assert.ok(full.sql.startsWith('WITH revenue'));
  assert.deepEqual(full.keyPlaces, [['out', 0]]);
  const q3 = tpchShape('SELECT a, sum(b) AS revenue FROM t GROUP BY a ORDER BY revenue DESC, a LIMIT 10;');
  assert.equal(q3.limit, 10);
  assert.equal(q3.fullAnswerSql(['a', 'revenue']).sql, 'SELECT a, sum(b) AS revenue FROM t GROUP BY a ORDER BY revenue DESC, a');
});
