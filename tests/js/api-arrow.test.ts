// Arrow in and out: register() takes an apache-arrow Table (every supported type, NULLs, several
// record batches, slices), and QueryResult.toArrow() gives back the same types and values.
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { catchLaneQLError, expectUsable, nullRows, valuesOf } from './api-helpers.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;

// name, Arrow type, values (null = NULL), laneql type, toArray() values.
const COLUMNS: [string, arrow.DataType, unknown[], string, unknown[]?][] = [
  ['i8', new arrow.Int8(), [-128, null, 127, 0], 'TINYINT'],
  ['i16', new arrow.Int16(), [-32768, 1, null, 32767], 'SMALLINT'],
  ['i32', new arrow.Int32(), [-2147483648, 2147483647, null, 5], 'INTEGER'],
  ['i64', new arrow.Int64(), [I64_MIN, null, I64_MAX, 1n], 'BIGINT'],
  ['u8', new arrow.Uint8(), [0, 255, null, 1], 'UTINYINT'],
  ['u16', new arrow.Uint16(), [0, 65535, 1, null], 'USMALLINT'],
  ['u32', new arrow.Uint32(), [4294967295, null, 0, 1], 'UINTEGER'],
  ['u64', new arrow.Uint64(), [U64_MAX, 0n, null, 2n ** 63n], 'UBIGINT'],
  ['f32', new arrow.Float32(), [-0, NaN, Infinity, null], 'FLOAT'],
  ['f64', new arrow.Float64(), [5e-324, null, -Infinity, -0], 'DOUBLE'],
  ['s', new arrow.Utf8(), ['', 'Привет', null, '😀 ok'], 'VARCHAR'],
  ['b', new arrow.Bool(), [true, false, null, true], 'BOOLEAN'],
  ['d', new arrow.DateDay(), [new Date(Date.UTC(2013, 6, 15)), null, new Date(0), new Date(Date.UTC(1969, 11, 31))], 'DATE',
    [new Date(Date.UTC(2013, 6, 15)), null, new Date(0), new Date(Date.UTC(1969, 11, 31))]],
];
const ROWS = 4;

/** A vector's values, NULLs as null (timestamps as apache-arrow reads them: fractional milliseconds). */
function arrowValues(vector: arrow.Vector | null): unknown[] {
  expect(vector).not.toBeNull();
  const v = vector as arrow.Vector;
  return Array.from({ length: v.length }, (_, i) => v.get(i) as unknown);
}

function inputTable(): arrow.Table {
  const vectors: Record<string, arrow.Vector> = {};
  for (const [name, type, values] of COLUMNS) vectors[name] = arrow.vectorFromArray(values, type);
  // Timestamps from their raw values, to keep microseconds: row 3 is NULL.
  vectors.ts = arrow.makeVector(arrow.makeData({
    type: new arrow.TimestampMicrosecond(), length: ROWS, nullCount: 1, nullBitmap: Uint8Array.of(0b0111),
    data: BigInt64Array.of(1373889600123456n, 0n, -1_000_000n, 5n),
  }));
  vectors.tss = arrow.makeVector(arrow.makeData({
    type: new arrow.TimestampSecond(), length: ROWS, data: BigInt64Array.of(1373889600n, -1n, 0n, 2n ** 33n),
  }));
  return new arrow.Table(vectors);
}

function intTable(xs: (number | null)[], ss: (string | null)[], firstId: number): arrow.Table {
  return new arrow.Table({
    id: arrow.vectorFromArray(xs.map((_, i) => firstId + i), new arrow.Int32()),
    x: arrow.vectorFromArray(xs, new arrow.Int32()),
    s: arrow.vectorFromArray(ss, new arrow.Utf8()),
  });
}

describe.each(NODE_FLAVOURS)('flavour %s: Arrow', (flavour) => {
  const db = useLaneQL({ flavour });

  it('registers an Arrow table of every supported type, NULLs included', () => {
    db().register('arr', inputTable());
    const result = db().query('SELECT * FROM arr');
    expect(result.numRows).toBe(ROWS);
    expect(result.columnNames).toEqual([...COLUMNS.map(([name]) => name), 'ts', 'tss']);
    expect(result.columnTypes).toEqual([...COLUMNS.map(([, , , type]) => type), 'TIMESTAMP', 'TIMESTAMP_S']);
    const rows = result.toArray();
    for (const [name, , values, , asRows] of COLUMNS) {
      expect(rows.map((row) => row[name]), name).toEqual(asRows ?? values);
      expect(nullRows(result, name), name).toEqual(values.flatMap((v, i) => (v === null ? [i] : [])));
    }
    expect(valuesOf(result.column('ts')).slice(0, 3)).toEqual([1373889600123456n, 0n, -1_000_000n]);
    expect(nullRows(result, 'ts')).toEqual([3]);
    expect(valuesOf(result.column('tss'))).toEqual([1373889600n, -1n, 0n, 2n ** 33n]);
    expect(rows.map((row) => row.tss)).toEqual([new Date(1373889600000), new Date(-1000), new Date(0), new Date(2 ** 33 * 1000)]);
    const sums = db().query('SELECT SUM(i32) AS a, MAX(u64) AS b, COUNT(s) AS c, MIN(d) AS d FROM arr').toArray();
    expect(sums).toEqual([{ a: 4n, b: U64_MAX, c: 3n, d: new Date(Date.UTC(1969, 11, 31)) }]);
  });

  it('reads a NULL as 0 in typed arrays, whatever the Arrow buffer holds under it', () => {
    const masked = (type: arrow.DataType, data: ArrayLike<unknown>): arrow.Vector =>
      arrow.makeVector(arrow.makeData({ type, length: 3, nullCount: 2, nullBitmap: Uint8Array.of(0b010), data } as never));
    db().register('arrow_masked', new arrow.Table({
      i: masked(new arrow.Int32(), Int32Array.of(-5, 6, 7)),
      f: masked(new arrow.Float64(), Float64Array.of(NaN, 2.5, -1)),
      ts: masked(new arrow.TimestampMicrosecond(), BigInt64Array.of(5n, 6n, 7n)),
    }));
    const result = db().query('SELECT * FROM arrow_masked');
    expect(result.columnNames.map((name) => nullRows(result, name))).toEqual([[0, 2], [0, 2], [0, 2]]);
    expect(result.columnNames.map((name) => valuesOf(result.column(name)))).toEqual([[0, 6, 0], [0, 2.5, 0], [0n, 6n, 0n]]);
  });

  it('gives back the same types and values from toArrow()', async () => {
    const input = inputTable();
    db().register('arr_rt', input);
    const output = await db().query('SELECT * FROM arr_rt').toArrow();
    expect(output.numRows).toBe(ROWS);
    expect(output.schema.fields.map((f) => f.name)).toEqual(input.schema.fields.map((f) => f.name));
    for (const field of input.schema.fields) {
      const got = output.schema.fields.find((f) => f.name === field.name) as arrow.Field;
      // Strings may come back as Utf8 or LargeUtf8; every other type exactly as it went in.
      const sensible = field.type instanceof arrow.Utf8 ? ['Utf8', 'LargeUtf8'] : [String(field.type)];
      expect(sensible, field.name).toContain(String(got.type));
      expect(arrowValues(output.getChild(field.name)), field.name).toEqual(arrowValues(input.getChild(field.name)));
    }
  });

  it('turns query results into Arrow: expressions, aggregates, empty results', async () => {
    const computed = await db().query('SELECT f64 * 2 AS p, s FROM arr ORDER BY s').toArrow();
    expect(computed.schema.fields.map((f) => [f.name, String(f.type)])).toEqual([
      ['p', 'Float64'], ['s', expect.stringMatching(/^(Large)?Utf8$/)],
    ]);
    expect(arrowValues(computed.getChild('s'))).toEqual(['', 'Привет', '😀 ok', null]);
    expect(arrowValues(computed.getChild('p'))).toEqual([1e-323, null, -0, -Infinity]);
    const aggregates = await db().query('SELECT COUNT(*) AS n, AVG(i16) AS a FROM arr').toArrow();
    expect(aggregates.schema.fields.map((f) => String(f.type))).toEqual(['Int64', 'Float64']);
    expect([aggregates.getChild('n')?.get(0), aggregates.getChild('a')?.get(0)]).toEqual([4n, 0]);
    const empty = await db().query('SELECT i8, s FROM arr WHERE i8 > 127').toArrow();
    expect(empty.numRows).toBe(0);
    expect(empty.schema.fields.map((f) => String(f.type))).toEqual(['Int8', expect.stringMatching(/^(Large)?Utf8$/)]);
  });

  it('reads every record batch of a chunked table', async () => {
    // Batch 1 without NULLs, batch 2 with them, batch 3 with an empty string.
    const table = intTable([1, 2, 3], ['a', 'b', 'c'], 0)
      .concat(intTable([4, null, 6], [null, 'e', 'Ж'], 3))
      .concat(intTable([7], [''], 6));
    expect(table.batches.length).toBe(3);
    db().register('chunked', table);
    const result = db().query('SELECT x, s FROM chunked ORDER BY id');
    expect(result.numRows).toBe(7);
    expect(result.toArray()).toEqual([
      { x: 1, s: 'a' }, { x: 2, s: 'b' }, { x: 3, s: 'c' }, { x: 4, s: null },
      { x: null, s: 'e' }, { x: 6, s: 'Ж' }, { x: 7, s: '' },
    ]);
    expect(db().query('SELECT SUM(x) AS t, COUNT(x) AS n FROM chunked').toArray()).toEqual([{ t: 23n, n: 6n }]);
    const back = await db().query('SELECT x, s FROM chunked ORDER BY id').toArrow();
    expect(arrowValues(back.getChild('x'))).toEqual([1, 2, 3, 4, null, 6, 7]);
    expect(arrowValues(back.getChild('s'))).toEqual(['a', 'b', 'c', null, 'e', 'Ж', '']);
  });

  it('reads a slice that starts inside a record batch', () => {
    // Offsets into values, validity bits and string offsets.
    const table = intTable([1, 2, 3], ['a', 'b', 'c'], 0).concat(intTable([4, null, 6], [null, 'e', 'Ж'], 3));
    db().register('sliced', table.slice(2, 6));
    const sliced = db().query('SELECT id, x, s FROM sliced ORDER BY id').toArray();
    expect(sliced).toEqual([
      { id: 2, x: 3, s: 'c' }, { id: 3, x: 4, s: null }, { id: 4, x: null, s: 'e' }, { id: 5, x: 6, s: 'Ж' },
    ]);
    db().register('sliced_inner', intTable([10, null, 12, 13], ['p', 'q', null, 'ё'], 0).slice(1, 3));
    expect(db().query('SELECT id, x, s FROM sliced_inner ORDER BY id').toArray()).toEqual([
      { id: 1, x: null, s: 'q' }, { id: 2, x: 12, s: null },
    ]);
  });

  it('registers what tableFromArrays() makes', () => {
    const table = arrow.tableFromArrays({
      n: Int16Array.of(3, -4, 5),
      f: Float32Array.of(0.25, -0, 1e-45),
      big: BigUint64Array.of(U64_MAX, 1n, 0n),
      s: ['x', 'yy', 'x'], // apache-arrow makes this Dictionary<Int32, Utf8>
    });
    db().register('from_arrays', table);
    const result = db().query('SELECT * FROM from_arrays');
    expect(result.columnTypes).toEqual(['SMALLINT', 'FLOAT', 'UBIGINT', 'VARCHAR']);
    expect(result.toArray()).toEqual([
      { n: 3, f: 0.25, big: U64_MAX, s: 'x' },
      { n: -4, f: -0, big: 1n, s: 'yy' },
      { n: 5, f: Math.fround(1e-45), big: 0n, s: 'x' },
    ]);
  });

  it('reads LargeUtf8 strings as VARCHAR', () => {
    db().register('large', new arrow.Table({ s: arrow.vectorFromArray(['p', null, 'ёж'], new arrow.LargeUtf8()) }));
    const result = db().query('SELECT s FROM large');
    expect(result.columnTypes).toEqual(['VARCHAR']);
    expect(result.column('s')).toEqual(['p', null, 'ёж']);
  });

  it('reads dictionary-encoded strings, or rejects them with a clear LaneQLError', async () => {
    const dict = arrow.vectorFromArray(['a', 'b', 'a', null, 'Ы'], new arrow.Dictionary(new arrow.Utf8(), new arrow.Int32()));
    const table = new arrow.Table({ id: arrow.vectorFromArray([0, 1, 2, 3, 4], new arrow.Int32()), dict_col: dict });
    let error: unknown = null;
    try {
      db().register('dict', table);
    } catch (thrown) {
      error = thrown;
    }
    if (error === null) {
      const result = db().query('SELECT dict_col FROM dict ORDER BY id');
      expect(result.columnTypes).toEqual(['VARCHAR']);
      expect(result.column(0)).toEqual(['a', 'b', 'a', null, 'Ы']);
      expect(db().query('SELECT COUNT(DISTINCT dict_col) AS n FROM dict').toArray()).toEqual([{ n: 3n }]);
    } else {
      const laneqlError = catchLaneQLError(() => {
        throw error;
      });
      expect(laneqlError.message).toMatch(/dict_col/);
      expect(laneqlError.message).toMatch(/dictionary/i);
      await expectUsable(db());
    }
  });

  it('takes decimal128 columns as DECIMAL and gives them back as decimal128', async () => {
    // 1.25, NULL, -0.05 and 10^37 - 1 at scale 2, as the 32-bit words of the 16-byte values.
    const words = new Uint32Array(16);
    const put = (row: number, v: bigint) => {
      for (let w = 0; w < 4; w++) words[row * 4 + w] = Number(BigInt.asUintN(32, v >> BigInt(32 * w)));
    };
    put(0, 125n);
    put(2, -5n);
    put(3, 10n ** 37n - 1n);
    const price = arrow.makeVector(arrow.makeData({
      type: new arrow.Decimal(2, 38, 128), length: 4, nullCount: 1, nullBitmap: Uint8Array.of(0b1101), data: words,
    }));
    db().register('dec', new arrow.Table({ price }));
    const result = db().query('SELECT price, price * 2 AS twice FROM dec');
    expect(result.columnTypes).toEqual(['DECIMAL(38,2)', 'DECIMAL(38,2)']);
    expect(result.column('price')).toEqual(['1.25', null, '-0.05', '99999999999999999999999999999999999.99']);
    expect(result.column('twice')).toEqual(['2.50', null, '-0.10', '199999999999999999999999999999999999.98']);
    const out = await db().query('SELECT price FROM dec').toArrow();
    expect(String(out.schema.fields[0]!.type)).toBe('Decimal[38e+2]');  // apache-arrow's spelling of decimal128(38, 2)
    expect(new Uint32Array(out.getChild('price')!.data[0]!.values.buffer, out.getChild('price')!.data[0]!.values.byteOffset, 16)).toEqual(words);
  });

  it('takes month_day_nano intervals as INTERVAL and gives them back so', async () => {
    // 14 months -3 days 5 µs; NULL; -1 month -1 µs (nanoseconds as two int32 words each).
    const data = Int32Array.of(14, -3, 5000, 0, 0, 0, 0, 0, -1, 0, -1000, -1);
    const span = arrow.makeVector(arrow.makeData({
      type: new arrow.IntervalMonthDayNano(), length: 3, nullCount: 1, nullBitmap: Uint8Array.of(0b101), data,
    }));
    db().register('spans', new arrow.Table({ span }));
    const result = db().query('SELECT span, CAST(span AS VARCHAR) AS text FROM spans');
    expect(result.columnTypes).toEqual(['INTERVAL', 'VARCHAR']);
    expect(result.column('text')).toEqual(['1 year 2 months -3 days 00:00:00.000005', null, '-1 month -00:00:00.000001']);
    const out = await db().query('SELECT span FROM spans').toArrow();
    expect(String(out.schema.fields[0]!.type)).toBe('Interval<MONTH_DAY_NANO>');
    const back = out.getChild('span')!;
    expect([0, 2].map((i) => Array.from(back.get(i) as Int32Array))).toEqual([[14, -3, 5000, 0], [-1, 0, -1000, -1]]);
    expect(back.get(1)).toBeNull();
  });

  it('rejects an unsupported Arrow type with a LaneQLError naming the column', async () => {
    const list = arrow.vectorFromArray([[1], [2, 3]], new arrow.List(new arrow.Field('item', new arrow.Int32())));
    const table = new arrow.Table({ ok: arrow.vectorFromArray([1, 2], new arrow.Int32()), list_col: list });
    const error = catchLaneQLError(() => db().register('listy', table));
    expect(error.message).toMatch(/list_col/);
    catchLaneQLError(() => db().query('SELECT * FROM listy'));
    await expectUsable(db());
  });
});
