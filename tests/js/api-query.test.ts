// query(): what a QueryResult says (shape, types, columns, NULLs, rows), large results, and SQL
// errors as LaneQLErrors with laneql's exact message and position.
import { beforeAll, describe, expect, it } from 'vitest';
import { catchLaneQLError, expectUsable, nullRows, valuesOf } from './api-helpers.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

const TS1 = 1373889600000000n; // 2013-07-15 12:00:00 UTC in microseconds
const TS2 = 1373932800000000n; // 2013-07-16 00:00:00 UTC
const BIG_ROWS = 100_000;

// errors.test's messages over a table t(a INTEGER, b INTEGER, s VARCHAR, ...): [sql, message, line, column].
const SQL_ERRORS: [string, string, number, number][] = [
  ['SELECT FROM t', "syntax error at line 1, column 8: unexpected 'FROM', expected an expression", 1, 8],
  ["SELECT 'unterminated FROM t", 'syntax error at line 1, column 8: unterminated string literal', 1, 8],
  ['SELECT a\nFROM t\nWHERE a >\nORDER BY a', "syntax error at line 4, column 1: unexpected 'ORDER', expected an expression", 4, 1],
  ['SELECT a,\n  nope FROM t', 'binder error at line 2, column 3: column "nope" not found in table "t"', 2, 3],
  ['SELECT a FROM missing', 'binder error at line 1, column 15: table "missing" does not exist', 1, 15],
  ['SELECT a, b FROM t GROUP BY a', 'binder error at line 1, column 11: column "b" must appear in the GROUP BY clause or be used in an aggregate function', 1, 11],
  ['SELECT SUM(s) FROM t', 'type error at line 1, column 12: sum(VARCHAR) is not supported: sum needs a numeric argument', 1, 12],
  ["SELECT a FROM t WHERE a = 'abc'", "conversion error at line 1, column 27: could not convert string 'abc' to INTEGER", 1, 27],
  ['SELECT CAST(s AS INTEGER) FROM t', "conversion error at line 1, column 8: could not convert string 'abc' to INTEGER", 1, 8],
];

describe.each(NODE_FLAVOURS)('flavour %s: query()', (flavour) => {
  const db = useLaneQL({ flavour });
  beforeAll(() => {
    db().register('t', {
      a: Int32Array.of(1, 3, 5),
      b: { type: 'INTEGER', values: [2, 4, null] },
      s: ['abc', 'Привет', null],
      ts: { type: 'TIMESTAMP', values: BigInt64Array.of(TS1, TS2, 99n), valid: [true, true, false] },
      d: { type: 'DATE', values: Int32Array.of(15901, 15902, 77), valid: [true, true, false] },
      flag: [true, false, null],
      x: Float64Array.of(0.5, -1.25, 1e10),
    });
  });

  it('describes its result: numRows, columnNames, columnTypes', () => {
    const result = db().query('SELECT a, s, ts, d, flag, x, a + b AS ab FROM t ORDER BY a');
    expect(result.numRows).toBe(3);
    expect(result.columnNames).toEqual(['a', 's', 'ts', 'd', 'flag', 'x', 'ab']);
    expect(result.columnTypes).toEqual(['INTEGER', 'VARCHAR', 'TIMESTAMP', 'DATE', 'BOOLEAN', 'DOUBLE', 'INTEGER']);
  });

  it('reads columns by name and by index, as the documented arrays', () => {
    const result = db().query('SELECT a, s, ts, d, flag, x, a + b AS ab FROM t ORDER BY a DESC');
    const expected: [string, unknown, unknown[]][] = [
      ['a', Int32Array, [5, 3, 1]],
      ['s', Array, [null, 'Привет', 'abc']],
      ['ts', BigInt64Array, [0n, TS2, TS1]],
      ['d', Int32Array, [0, 15902, 15901]],
      ['flag', Uint8Array, [0, 0, 1]],
      ['x', Float64Array, [1e10, -1.25, 0.5]],
      ['ab', Int32Array, [0, 7, 3]],
    ];
    // Row 0 has NULLs: 'tells NULLs apart' checks what typed arrays hold there.
    const rest = (column: ArrayLike<unknown>): unknown[] => valuesOf(column).slice(1);
    expected.forEach(([name, kind, values], index) => {
      expect(result.column(name), name).toBeInstanceOf(kind);
      expect(rest(result.column(name)), name).toEqual(values.slice(1));
      expect(rest(result.column(index)), name).toEqual(values.slice(1));
    });
    expect(result.column('s')[0]).toBeNull();
  });

  it('throws LaneQLError for an unknown column name or index', () => {
    const result = db().query('SELECT a, s FROM t');
    expect(catchLaneQLError(() => result.column('nope')).message).toMatch(/nope/);
    catchLaneQLError(() => result.column(2));
    catchLaneQLError(() => result.column(-1));
    catchLaneQLError(() => result.nullMask('nope'));
    catchLaneQLError(() => result.isNull('nope', 0));
  });

  it('tells NULLs apart: isNull() and nullMask()', () => {
    const result = db().query('SELECT a, b, s, d FROM t ORDER BY a');
    expect(result.nullMask('a')).toBeNull();
    for (const column of ['b', 's', 'd', 1, 2, 3]) {
      const mask = result.nullMask(column);
      expect(mask).toBeInstanceOf(Uint8Array);
      expect(valuesOf(mask as Uint8Array)).toEqual([0, 0, 1]);
      expect([0, 1, 2].map((row) => result.isNull(column, row))).toEqual([false, false, true]);
    }
    expect([0, 1, 2].map((row) => result.isNull('a', row))).toEqual([false, false, false]);
    // In typed arrays a NULL reads 0, computed by the query or registered with a mask.
    const computed = db().query('SELECT a + b AS ab, CASE WHEN a > 4 THEN x END AS cx, ts, d FROM t ORDER BY a');
    expect(computed.columnNames.map((name) => valuesOf(computed.column(name)))).toEqual([
      [3, 7, 0], [0, 0, 1e10], [TS1, TS2, 0n], [15901, 15902, 0],
    ]);
  });

  it('gives toArray() values of the documented kinds', () => {
    const rows = db().query('SELECT a, b, s, ts, d, flag, x FROM t ORDER BY a').toArray();
    expect(rows).toEqual([
      { a: 1, b: 2, s: 'abc', ts: new Date(1373889600000), d: new Date(Date.UTC(2013, 6, 15)), flag: true, x: 0.5 },
      { a: 3, b: 4, s: 'Привет', ts: new Date(1373932800000), d: new Date(Date.UTC(2013, 6, 16)), flag: false, x: -1.25 },
      { a: 5, b: null, s: null, ts: null, d: null, flag: null, x: 1e10 },
    ]);
    expect(rows[0].ts).toBeInstanceOf(Date);
    expect(rows[0].d).toBeInstanceOf(Date);
  });

  it('types aggregates as DuckDB does: COUNT BIGINT, SUM HUGEINT, AVG DOUBLE', () => {
    const result = db().query(
      'SELECT COUNT(*) AS n, COUNT(b) AS nb, SUM(a) AS sa, AVG(a) AS av, MIN(d) AS md, MAX(ts) AS mt, ' +
        'SUM(x) AS sx, MIN(s) AS ms FROM t',
    );
    expect(result.columnTypes).toEqual(['BIGINT', 'BIGINT', 'HUGEINT', 'DOUBLE', 'DATE', 'TIMESTAMP', 'DOUBLE', 'VARCHAR']);
    expect(result.column('sa')).toEqual([9n]);
    expect(result.toArray()).toEqual([
      { n: 3n, nb: 2n, sa: 9n, av: 3, md: new Date(Date.UTC(2013, 6, 15)), mt: new Date(1373932800000), sx: 9999999999.25, ms: 'abc' },
    ]);
  });

  it('reads DECIMAL columns as their exact decimal texts', () => {
    const result = db().query(
      "SELECT 1.50 AS p, CAST(-0.05 AS DECIMAL(3,2)) AS n, .5 AS f, CAST('12345678901234567890123456789.123456789' AS DECIMAL(38,9)) AS big, " +
        'SUM(CAST(x AS DECIMAL(14,2))) AS s, CAST(NULL AS DECIMAL(5,1)) AS z FROM t',
    );
    expect(result.columnTypes).toEqual(['DECIMAL(3,2)', 'DECIMAL(3,2)', 'DECIMAL(1,1)', 'DECIMAL(38,9)', 'DECIMAL(38,2)', 'DECIMAL(5,1)']);
    expect(result.toArray()).toEqual([
      { p: '1.50', n: '-0.05', f: '0.5', big: '12345678901234567890123456789.123456789', s: '9999999999.25', z: null },
    ]);
    expect(result.column('z')).toEqual([null]);
  });

  it('returns empty results with their names and types', () => {
    const empty = db().query('SELECT a, s, d FROM t WHERE a > 100');
    expect(empty.numRows).toBe(0);
    expect(empty.columnNames).toEqual(['a', 's', 'd']);
    expect(empty.columnTypes).toEqual(['INTEGER', 'VARCHAR', 'DATE']);
    expect(empty.column('a')).toBeInstanceOf(Int32Array);
    expect(empty.column('a').length).toBe(0);
    expect(empty.column('s')).toEqual([]);
    expect(empty.nullMask('a')).toBeNull();
    expect(empty.toArray()).toEqual([]);
    const aggregates = db().query('SELECT COUNT(*) AS n, SUM(a) AS total, MAX(s) AS m FROM t WHERE a > 100');
    expect(aggregates.toArray()).toEqual([{ n: 0n, total: null, m: null }]);
    db().register('no_rows', { v: new Int32Array(0), w: [] });
    expect(db().query('SELECT COUNT(*) AS n FROM no_rows').toArray()).toEqual([{ n: 0n }]);
    expect(db().query('SELECT * FROM no_rows').numRows).toBe(0);
  });

  describe('a large table', () => {
    const ids = Int32Array.from({ length: BIG_ROWS }, (_, i) => i);
    beforeAll(() => {
      db().register('big', {
        i: ids,
        x: Float64Array.from(ids, (i) => i * 0.5),
        s: Array.from(ids, (i) => `k${i % 100}`),
      });
    });

    it(`returns all ${BIG_ROWS} rows of SELECT *`, () => {
      const result = db().query('SELECT * FROM big');
      expect(result.numRows).toBe(BIG_ROWS);
      const i = result.column('i') as Int32Array;
      const x = result.column('x') as Float64Array;
      const s = result.column('s') as string[];
      // Row order without ORDER BY is not promised: check each row against its id.
      expect(new Set(i).size).toBe(BIG_ROWS);
      for (let row = 0; row < BIG_ROWS; row++) {
        if (x[row] !== i[row] * 0.5 || s[row] !== `k${i[row] % 100}`) {
          expect({ row, i: i[row], x: x[row], s: s[row] }).toEqual({ row, i: i[row], x: i[row] * 0.5, s: `k${i[row] % 100}` });
        }
      }
      expect(result.toArray()).toHaveLength(BIG_ROWS);
    });

    it('filters and orders a large result', () => {
      const result = db().query('SELECT i, x * 2 AS y FROM big WHERE i % 3 = 0 ORDER BY i DESC');
      const expected = ids.filter((i) => i % 3 === 0).reverse();
      expect(result.numRows).toBe(expected.length);
      expect(result.column('i')).toEqual(expected);
      expect(result.column('y')).toEqual(Float64Array.from(expected));
    });

    it('groups a large table', () => {
      const result = db().query('SELECT i % 1000 AS k, COUNT(*) AS c, SUM(i) AS total FROM big GROUP BY k ORDER BY k');
      expect(result.numRows).toBe(1000);
      expect(valuesOf(result.column('k'))).toEqual(Array.from({ length: 1000 }, (_, k) => k));
      expect(new Set(result.column('c') as BigInt64Array)).toEqual(new Set([100n]));
      const sums = result.column('total') as bigint[];
      // Group k holds k, k + 1000, ..., k + 99000: 100 k + 1000 * (0 + ... + 99).
      sums.forEach((sum, k) => {
        if (sum !== BigInt(100 * k + 1000 * 4950)) expect({ k, sum }).toEqual({ k, sum: BigInt(100 * k + 1000 * 4950) });
      });
    });
  });

  it.each(SQL_ERRORS)('throws LaneQLError for %j with the exact message', (sql, message, line, column) => {
    const error = catchLaneQLError(() => db().query(sql));
    expect(error.message).toBe(message);
    expect([error.line, error.column]).toEqual([line, column]);
  });

  it('throws LaneQLError for a query that is not a string', () => {
    catchLaneQLError(() => db().query(42 as unknown as string));
    catchLaneQLError(() => db().query(undefined as unknown as string));
  });

  it('keeps answering after errors', async () => {
    for (const [sql] of SQL_ERRORS) catchLaneQLError(() => db().query(sql));
    expect(db().query('SELECT SUM(a) AS s FROM t').toArray()).toEqual([{ s: 9n }]);
    await expectUsable(db());
  });
});
