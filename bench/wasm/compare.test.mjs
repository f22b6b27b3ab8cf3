// Unit tests of the benchmark's answer check (compare.mjs): node --test bench/wasm/
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueryShape, checkAgainstFullAnswer, checkWindow, mutations, quickVerdict, valuesMatch } from './compare.mjs';

const none = new Set();

test('QueryShape: select list, ORDER BY keys, LIMIT, OFFSET', () => {
  const s = new QueryShape("SELECT URL, COUNT(*) AS PageViews FROM hits WHERE URL <> '' GROUP BY URL ORDER BY PageViews DESC LIMIT 10 OFFSET 1000;");
  assert.deepEqual(s.selectItems, [['URL', null], ['COUNT(*)', 'PageViews']]);
  assert.deepEqual(s.orderKeys, ['PageViews']);
  assert.equal(s.limit, 10);
  assert.equal(s.offset, 1000);
  const full = s.fullAnswerSql(['URL', 'PageViews']);
  assert.equal(full.sql, "SELECT URL, COUNT(*) AS PageViews FROM hits WHERE URL <> '' GROUP BY URL ORDER BY PageViews DESC");
  assert.deepEqual(full.keyPlaces, [['out', 1]]);
});

test('QueryShape: a key that is not selected is appended', () => {
  const s = new QueryShape("SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY EventTime, SearchPhrase LIMIT 10");
  const full = s.fullAnswerSql(['SearchPhrase']);
  assert.equal(full.sql, "SELECT SearchPhrase, EventTime AS __bench_key_0 FROM hits WHERE SearchPhrase <> '' ORDER BY EventTime, SearchPhrase");
  assert.deepEqual(full.keyPlaces, [['extra', 0], ['out', 0]]);
  const expr = new QueryShape("SELECT DATE_TRUNC('minute', EventTime) AS M, COUNT(*) FROM hits GROUP BY DATE_TRUNC('minute', EventTime) ORDER BY DATE_TRUNC('minute', EventTime) LIMIT 10 OFFSET 1000");
  assert.deepEqual(expr.fullAnswerSql(['M', 'c']).keyPlaces, [['out', 0]]);
  const countStar = new QueryShape('SELECT UserID, COUNT(*) FROM hits GROUP BY UserID ORDER BY COUNT(*) DESC LIMIT 10');
  assert.deepEqual(countStar.fullAnswerSql(['UserID', 'count_star()']).keyPlaces, [['out', 1]]);
});

test('values: integers exact, floats relative, temporals by kind', () => {
  assert.ok(valuesMatch(5n, 5n));
  assert.ok(!valuesMatch(5n, 6n));
  assert.ok(valuesMatch(1.0, 1.0 + 1e-12));
  assert.ok(!valuesMatch(1.0, 1.0 + 1e-6));
  assert.ok(valuesMatch(3n, 3.0));
  assert.ok(valuesMatch(NaN, NaN));
  assert.ok(valuesMatch(null, null));
  assert.ok(!valuesMatch(null, 0n));
  assert.ok(!valuesMatch('', null));
  assert.ok(valuesMatch({ d: 15887n }, { d: 15887n }));
  assert.ok(!valuesMatch({ d: 0n }, { ts: 0n }));
});

test('checkWindow: ties at the end of the window accept any of their rows', () => {
  // ORDER BY c DESC LIMIT 2 over (a,3) (b,2) (c,2) (d,1): the second row may be b or c.
  const full = [['a', 3n], ['b', 2n], ['c', 2n], ['d', 1n]];
  const keys = full.map((r) => [r[1]]);
  assert.equal(checkWindow([['a', 3n], ['c', 2n]], full, keys, 0, 2, true, none), null);
  assert.equal(checkWindow([['a', 3n], ['b', 2n]], full, keys, 0, 2, true, none), null);
  assert.match(checkWindow([['a', 3n], ['d', 1n]], full, keys, 0, 2, true, none), /not in DuckDB/);
  assert.match(checkWindow([['c', 2n], ['a', 3n]], full, keys, 0, 2, true, none), /not in DuckDB/);
  assert.match(checkWindow([['a', 3n]], full, keys, 0, 2, true, none), /1 rows, DuckDB 2/);
  // Inside the window a tie group must be exactly its rows, in any order.
  assert.equal(checkWindow([['a', 3n], ['c', 2n], ['b', 2n]], full, keys, 0, 3, true, none), null);
  assert.match(checkWindow([['a', 3n], ['c', 2n], ['c', 2n]], full, keys, 0, 3, true, none), /not in DuckDB/);
});

test('quickVerdict: the same rows in the same order, or as a multiset without ORDER BY', () => {
  const ordered = new QueryShape('SELECT a, COUNT(*) AS c FROM t GROUP BY a ORDER BY c DESC');
  const unordered = new QueryShape('SELECT a, COUNT(*) AS c FROM t GROUP BY a');
  const x = [['a', 2n], ['b', 1n]];
  const y = [['b', 1n], ['a', 2n]];
  assert.equal(quickVerdict(x, x, ordered, none), 'same');
  assert.equal(quickVerdict(y, x, ordered, none), null);
  assert.equal(quickVerdict(y, x, unordered, none), 'same');
});

async function* batchesOf(rows, size) {
  for (let i = 0; i < rows.length; i += size) yield rows.slice(i, i + size);
}

test('checkAgainstFullAnswer: a tie group larger than the cap is streamed', async () => {
  // ORDER BY c DESC LIMIT 3 where one row has c = 5 and 1000 rows have c = 1.
  const full = [['top', 5n]];
  for (let i = 0; i < 1000; i++) full.push([`r${i}`, 1n]);
  const shape = new QueryShape('SELECT k, COUNT(*) AS c FROM t GROUP BY k ORDER BY c DESC LIMIT 3');
  const places = shape.fullAnswerSql(['k', 'c']).keyPlaces;
  const good = [['top', 5n], ['r900', 1n], ['r17', 1n]];
  const r1 = await checkAgainstFullAnswer(good, shape, batchesOf(full, 64), places, 2, none, 100);
  assert.equal(r1.problem, null);
  const bad = [['top', 5n], ['r900', 1n], ['nope', 1n]];
  const r2 = await checkAgainstFullAnswer(bad, shape, batchesOf(full, 64), places, 2, none, 100);
  assert.match(r2.problem, /not in DuckDB's tie group/);
  const badFront = [['top', 4n], ['r900', 1n], ['r1', 1n]];
  const r3 = await checkAgainstFullAnswer(badFront, shape, batchesOf(full, 64), places, 2, none, 100);
  assert.match(r3.problem, /not in DuckDB/);
  // Without ORDER BY, LIMIT takes any rows of the answer.
  const any = new QueryShape('SELECT k, COUNT(*) AS c FROM t GROUP BY k LIMIT 2');
  const r4 = await checkAgainstFullAnswer([['r5', 1n], ['top', 5n]], any, batchesOf(full, 64), [], 2, none, 100);
  assert.equal(r4.problem, null);
  const r5 = await checkAgainstFullAnswer([['r5', 1n], ['top', 6n]], any, batchesOf(full, 64), [], 2, none, 100);
  assert.match(r5.problem, /not in DuckDB/);
});

test('mutations: every wrong variant of an answer differs from it', () => {
  const rows = [[1n, 'x', 2.5, { d: 3n }, null], [2n, 'y', 1.5, { d: 4n }, null]];
  for (const [, wrong] of mutations(rows)) {
    assert.ok(wrong.length !== rows.length || wrong.some((r, i) => r.some((v, j) => !valuesMatch(v, rows[i][j]))));
  }
});
