// register(): typed arrays, plain arrays and TypedColumns in, exact values out; bad input is a
// LaneQLError that names the column, and the database keeps working.
import { describe, expect, it } from 'vitest';
import type { ColumnInput, ColumnsInput, ColumnType } from '../../bindings-js/dist/index.js';
import { catchLaneQLError, dayOf, expectUsable, nullRows, valuesOf } from './api-helpers.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;
const U64_MAX = 2n ** 64n - 1n;
const F32_MIN_SUBNORMAL = Math.fround(1.4e-45);

// Five rows each: the type's extremes, -0.0, NaN, infinities and subnormals.
const TYPED_ARRAYS: Record<string, [ColumnType, ArrayLike<unknown>]> = {
  i8: ['TINYINT', Int8Array.of(-128, 127, 0, -1, 42)],
  i16: ['SMALLINT', Int16Array.of(-32768, 32767, 0, -1, 4242)],
  i32: ['INTEGER', Int32Array.of(-2147483648, 2147483647, 0, -1, 424242)],
  i64: ['BIGINT', BigInt64Array.of(I64_MIN, I64_MAX, 0n, -1n, 2n ** 53n + 1n)],
  u8: ['UTINYINT', Uint8Array.of(0, 255, 1, 128, 7)],
  u16: ['USMALLINT', Uint16Array.of(0, 65535, 1, 32768, 7)],
  u32: ['UINTEGER', Uint32Array.of(0, 4294967295, 1, 2147483648, 7)],
  u64: ['UBIGINT', BigUint64Array.of(0n, U64_MAX, 1n, 2n ** 63n, 7n)],
  f32: ['FLOAT', Float32Array.of(-0, NaN, Infinity, F32_MIN_SUBNORMAL, -3.4028234663852886e38)],
  f64: ['DOUBLE', Float64Array.of(-0, NaN, -Infinity, 5e-324, 2.2250738585072009e-308)],
};

describe.each(NODE_FLAVOURS)('flavour %s: register()', (flavour) => {
  const db = useLaneQL({ flavour });

  it('maps every typed array to its type and returns its values bit for bit', () => {
    const table: ColumnsInput = {};
    for (const [name, [, values]] of Object.entries(TYPED_ARRAYS)) table[name] = values as ColumnInput;
    db().register('typed', table);
    const result = db().query('SELECT * FROM typed');
    expect(result.numRows).toBe(5);
    expect(result.columnNames).toEqual(Object.keys(TYPED_ARRAYS));
    expect(result.columnTypes).toEqual(Object.values(TYPED_ARRAYS).map(([type]) => type));
    Object.entries(TYPED_ARRAYS).forEach(([name, [, values]], index) => {
      const column = result.column(name);
      expect(column.constructor, name).toBe(values.constructor);
      expect(valuesOf(column), name).toEqual(valuesOf(values));
      expect(valuesOf(result.column(index)), name).toEqual(valuesOf(values));
      expect(result.nullMask(name), name).toBeNull();
    });
  });

  it('lets SQL see the typed values as their types (signedness, extremes)', () => {
    const sql =
      'SELECT MIN(i64) AS a, MAX(i64) AS b, MIN(u64) AS c, MAX(u64) AS d, MAX(u32) AS e, ' +
      'MIN(i8) AS f, MAX(u8) AS g, MIN(i32) AS h, COUNT(*) AS n FROM typed';
    expect(db().query(sql).toArray()).toEqual([
      { a: I64_MIN, b: I64_MAX, c: 0n, d: U64_MAX, e: 4294967295, f: -128, g: 255, h: -2147483648, n: 5n },
    ]);
    // Unsigned values above the signed range compare as unsigned: rows 1 and 3.
    const unsigned = 'SELECT COUNT(*) AS n FROM typed WHERE u64 > 7 AND u32 > 2147483647 AND u16 > 32767';
    expect(db().query(unsigned).toArray()).toEqual([{ n: 2n }]);
  });

  it('infers the types of plain arrays, with NULLs mixed in', () => {
    const when = new Date(Date.UTC(2013, 6, 15, 12, 0, 0, 123));
    db().register('plain', {
      s: ['', 'abc', null, 'Привет, мир', '😀 emoji 🎉'],
      n: [1, -2, 2 ** 53 - 1, null, -(2 ** 53 - 1)],
      f: [1.5, -0, null, 1e300, 0.1],
      unsafe: [1, 2, 3, null, 2 ** 53],
      big: [I64_MIN, I64_MAX, null, 0n, 5n],
      b: [true, false, null, true, false],
      ts: [when, new Date(0), null, new Date(-1), new Date(Date.UTC(2038, 0, 19, 3, 14, 8))],
      nothing: [null, null, null, null, null],
    });
    const result = db().query('SELECT * FROM plain');
    expect(result.columnTypes).toEqual([
      'VARCHAR', 'BIGINT', 'DOUBLE', 'DOUBLE', 'BIGINT', 'BOOLEAN', 'TIMESTAMP', 'VARCHAR',
    ]);
    expect(result.column('s')).toEqual(['', 'abc', null, 'Привет, мир', '😀 emoji 🎉']);
    expect(valuesOf(result.column('n'))).toEqual([1n, -2n, 2n ** 53n - 1n, 0n, -(2n ** 53n - 1n)]);
    expect(valuesOf(result.column('f'))).toEqual([1.5, -0, 0, 1e300, 0.1]);
    expect(valuesOf(result.column('unsafe'))).toEqual([1, 2, 3, 0, 2 ** 53]);
    expect(valuesOf(result.column('b'))).toEqual([1, 0, 0, 1, 0]);
    expect(valuesOf(result.column('ts'))).toEqual([1373889600123000n, 0n, 0n, -1000n, 2147483648000000n]);
    for (const name of ['s', 'f', 'big', 'b', 'ts']) expect(nullRows(result, name), name).toEqual([2]);
    for (const name of ['n', 'unsafe']) expect(nullRows(result, name), name).toEqual([3]);
    expect(nullRows(result, 'nothing')).toEqual([0, 1, 2, 3, 4]);
    expect(result.toArray()[0]).toEqual({
      s: '', n: 1n, f: 1.5, unsafe: 1, big: I64_MIN, b: true, ts: when, nothing: null,
    });
    expect(result.toArray().slice(2, 4)).toEqual([
      { s: null, n: 2n ** 53n - 1n, f: null, unsafe: 3, big: null, b: null, ts: null, nothing: null },
      { s: 'Привет, мир', n: null, f: 1e300, unsafe: null, big: 0n, b: true, ts: new Date(-1), nothing: null },
    ]);
    // The engine sees the UTF-8 text: length() counts characters, not bytes or UTF-16 units.
    const lengths = db().query("SELECT s, length(s) AS l FROM plain WHERE s <> '' ORDER BY s");
    expect(lengths.toArray()).toEqual([
      { s: 'abc', l: 3n },
      { s: 'Привет, мир', l: 11n },
      { s: '😀 emoji 🎉', l: 9n },
    ]);
  });

  const TYPED_COLUMNS: [string, ColumnInput, ColumnType, unknown[], number[], unknown[]][] = [
    // label, input, type, column() values, NULL rows, toArray() values
    ['DATE from days', { type: 'DATE', values: Int32Array.of(dayOf(2013, 7, 15), -1, 0, 7), valid: [true, true, false, true] },
      'DATE', [15901, -1, 0, 7], [2], [new Date(Date.UTC(2013, 6, 15)), new Date(Date.UTC(1969, 11, 31)), null, new Date(Date.UTC(1970, 0, 8))]],
    ['DATE from Dates and ISO strings', { type: 'DATE', values: ['2013-07-15', new Date(Date.UTC(2000, 0, 1)), null, '1970-01-01'] },
      'DATE', [15901, dayOf(2000, 1, 1), 0, 0], [2], [new Date(Date.UTC(2013, 6, 15)), new Date(Date.UTC(2000, 0, 1)), null, new Date(0)]],
    ['TIMESTAMP from micros', { type: 'TIMESTAMP', values: BigInt64Array.of(1373889600123456n, 0n, 5n, 86_400_000_000n), valid: Uint8Array.of(1, 1, 0, 1) },
      'TIMESTAMP', [1373889600123456n, 0n, 0n, 86_400_000_000n], [2], [new Date(1373889600123), new Date(0), null, new Date(86_400_000)]],
    ['TIMESTAMP from Dates and ISO strings', { type: 'TIMESTAMP', values: [new Date(1500), '2013-07-15T12:00:00Z', null, new Date(-86_400_000)] },
      'TIMESTAMP', [1_500_000n, 1373889600000000n, 0n, -86_400_000_000n], [2], [new Date(1500), new Date(1373889600000), null, new Date(-86_400_000)]],
    ['TIMESTAMP_S from seconds', { type: 'TIMESTAMP_S', values: BigInt64Array.of(1373889600n, -1n, 0n, 2n ** 40n) },
      'TIMESTAMP_S', [1373889600n, -1n, 0n, 2n ** 40n], [], [new Date(1373889600000), new Date(-1000), new Date(0), new Date(2 ** 40 * 1000)]],
    ['BOOLEAN from bytes', { type: 'BOOLEAN', values: Uint8Array.of(1, 0, 1, 1), valid: [true, true, false, true] },
      'BOOLEAN', [1, 0, 0, 1], [2], [true, false, null, true]],
    ['BOOLEAN from booleans', { type: 'BOOLEAN', values: [false, null, true, true] },
      'BOOLEAN', [0, 0, 1, 1], [1], [false, null, true, true]],
    ['HUGEINT from bigints', { type: 'HUGEINT', values: [2n ** 100n, -(2n ** 127n), null, 2n ** 127n - 1n] },
      'HUGEINT', [2n ** 100n, -(2n ** 127n), 0n, 2n ** 127n - 1n], [2], [2n ** 100n, -(2n ** 127n), null, 2n ** 127n - 1n]],
    ['TINYINT from numbers', { type: 'TINYINT', values: [-128, 127, null, 0] },
      'TINYINT', [-128, 127, 0, 0], [2], [-128, 127, null, 0]],
    ['SMALLINT from Int16Array with a Uint8Array mask', { type: 'SMALLINT', values: Int16Array.of(1, 2, 3, 4), valid: Uint8Array.of(0, 1, 1, 0) },
      'SMALLINT', [0, 2, 3, 0], [0, 3], [null, 2, 3, null]],
    ['INTEGER from Int32Array with a mask', { type: 'INTEGER', values: Int32Array.of(7, 8, 9, 10), valid: [true, false, true, true] },
      'INTEGER', [7, 0, 9, 10], [1], [7, null, 9, 10]],
    ['UBIGINT from bigints', { type: 'UBIGINT', values: [0n, U64_MAX, null, 1n] },
      'UBIGINT', [0n, U64_MAX, 0n, 1n], [2], [0n, U64_MAX, null, 1n]],
    ['FLOAT from numbers', { type: 'FLOAT', values: [0.5, -0, null, -Infinity] },
      'FLOAT', [0.5, -0, 0, -Infinity], [2], [0.5, -0, null, -Infinity]],
    ['DOUBLE from integers', { type: 'DOUBLE', values: [1, 2, null, 2 ** 60] },
      'DOUBLE', [1, 2, 0, 2 ** 60], [2], [1, 2, null, 2 ** 60]],
    ['BIGINT from numbers', { type: 'BIGINT', values: [1, -1, null, 2 ** 53] },
      'BIGINT', [1n, -1n, 0n, 2n ** 53n], [2], [1n, -1n, null, 2n ** 53n]],
    ['VARCHAR from strings', { type: 'VARCHAR', values: ['x', null, '', 'ёж'] },
      'VARCHAR', ['x', null, '', 'ёж'], [1], ['x', null, '', 'ёж']],
  ];

  it.each(TYPED_COLUMNS)('TypedColumn: %s', (_label, input, type, values, nulls, rows) => {
    db().register('tc', { v: input, id: Int32Array.of(0, 1, 2, 3) });
    const result = db().query('SELECT v FROM tc ORDER BY id');
    expect(result.columnTypes).toEqual([type]);
    const column = result.column('v');
    // What a typed array holds under a NULL is checked in its own test below.
    const got = valuesOf(column).map((v, row) => (nulls.includes(row) && type !== 'VARCHAR' ? values[row] : v));
    expect(got).toEqual(values);
    expect(nullRows(result, 0)).toEqual(nulls);
    nulls.forEach((row) => expect(result.isNull('v', row)).toBe(true));
    expect(result.toArray().map((row) => row.v)).toEqual(rows);
    const count = db().query('SELECT COUNT(v) AS c FROM tc').toArray();
    expect(count).toEqual([{ c: BigInt(4 - nulls.length) }]);
  });

  it('takes DECIMAL, TIME and INTERVAL columns from plain arrays in their own forms', async () => {
    db().register('typed_forms', {
      price: { type: 'DECIMAL(10,2)', values: ['1.505', 2.5, -3n, null, ' -0.004 ', '1e3'] },
      at: { type: 'TIME', values: ['12:34:56.5', 0n, null, 86_400_000_000n, '7:05', 1] },
      span: { type: 'INTERVAL', values: [{ months: 14, days: -3, micros: 5n }, null, { months: -1, days: 0, micros: -1n }, { months: 0, days: 0, micros: 0n }, null, null] },
    });
    const result = db().query("SELECT price, price * 2 AS twice, CAST(at AS VARCHAR) AS at, CAST(span AS VARCHAR) AS span FROM typed_forms");
    expect(result.columnTypes).toEqual(['DECIMAL(10,2)', 'DECIMAL(20,2)', 'VARCHAR', 'VARCHAR']);
    expect(result.column('price')).toEqual(['1.51', '2.50', '-3.00', null, '0.00', '1000.00']);
    expect(result.column('twice')).toEqual(['3.02', '5.00', '-6.00', null, '0.00', '2000.00']);
    expect(result.column('at')).toEqual(['12:34:56.5', '00:00:00', null, '24:00:00', '07:05:00', '00:00:00.000001']);
    expect(result.column('span')).toEqual(['1 year 2 months -3 days 00:00:00.000005', null, '-1 month -00:00:00.000001', '00:00:00', null, null]);
    expect(db().query('SELECT span FROM typed_forms LIMIT 1').column(0)).toEqual([{ months: 14, days: -3, micros: 5n }]);
    for (const [type, value] of [['DECIMAL(4,2)', '123.4'], ['DECIMAL(4,2)', 'abc'], ['DECIMAL(4,2)', Infinity], ['TIME', '25:00'],
      ['INTERVAL', { months: 1.5, days: 0, micros: 0n }]] as const) {
      const error = catchLaneQLError(() => db().register('bad_forms', { c: { type, values: [value] } } as unknown as ColumnsInput));
      expect(error.message).toMatch(new RegExp(`column 'c' row 0: .* is not a ${type.replace(/[()]/g, '\\$&')} value`));
    }
    await expectUsable(db());
  });

  it('reads a NULL as 0 in typed arrays, whatever the input held under it', () => {
    db().register('masked', {
      i: { type: 'INTEGER', values: Int32Array.of(7, 8), valid: [true, false] },
      s: { type: 'SMALLINT', values: Int16Array.of(-1, 2), valid: Uint8Array.of(0, 1) },
      ts: { type: 'TIMESTAMP', values: BigInt64Array.of(5n, 6n), valid: [false, true] },
      b: { type: 'BOOLEAN', values: Uint8Array.of(1, 1), valid: [true, false] },
      d: { type: 'DATE', values: Int32Array.of(100, 200), valid: [false, true] },
      f: { type: 'DOUBLE', values: Float64Array.of(NaN, 1.5), valid: [false, true] },
    });
    const result = db().query('SELECT * FROM masked');
    expect(result.columnNames.map((name) => nullRows(result, name))).toEqual([[1], [0], [0], [1], [0], [0]]);
    expect(result.columnNames.map((name) => valuesOf(result.column(name)))).toEqual([
      [7, 0], [0, 2], [0n, 6n], [1, 0], [0, 200], [0, 1.5],
    ]);
  });

  it('replaces a table of the same name, case-insensitively', () => {
    db().register('Repl', { a: [1, 2, 3] });
    expect(db().query('SELECT SUM(a) AS s FROM repl').toArray()).toEqual([{ s: 6n }]);
    db().register('REPL', { b: ['x'] });
    const result = db().query('SELECT * FROM Repl');
    expect(result.columnNames).toEqual(['b']);
    expect(result.toArray()).toEqual([{ b: 'x' }]);
  });

  it('resolves table and column names case-insensitively', () => {
    db().register('MixedCase', { SomeColumn: Int32Array.of(5, 6) });
    for (const sql of ['SELECT somecolumn FROM mixedcase', 'SELECT SOMECOLUMN FROM MIXEDCASE']) {
      expect(valuesOf(db().query(sql).column(0))).toEqual([5, 6]);
    }
  });

  const BAD_COLUMNS: [string, Record<string, unknown>, RegExp][] = [
    ['unequal column lengths', { long_col: [1, 2, 3], short_col: [1, 2] }, /short_col/],
    ['duplicate column names (case-insensitive)', { dup_col: [1], DUP_COL: [2] }, /dup_col/i],
    ['a string in an INTEGER column', { int_col: { type: 'INTEGER', values: [1, 'x', 3] } }, /int_col/],
    ['a fraction in an INTEGER column', { frac_col: { type: 'INTEGER', values: [1, 2.5] } }, /frac_col/],
    ['a fraction in a BIGINT column', { bfrac_col: { type: 'BIGINT', values: [0.5] } }, /bfrac_col/],
    ['NaN in a BIGINT column', { nan_col: { type: 'BIGINT', values: [NaN] } }, /nan_col/],
    ['a bigint above BIGINT', { big_col: [1n, 2n ** 63n] }, /big_col/],
    ['a bigint below BIGINT', { small_col: [-(2n ** 63n) - 1n] }, /small_col/],
    ['a negative UBIGINT', { ub_col: { type: 'UBIGINT', values: [-1n] } }, /ub_col/],
    ['128 in a TINYINT column', { tiny_col: { type: 'TINYINT', values: [128] } }, /tiny_col/],
    ['HUGEINT beyond 128 bits', { huge_col: { type: 'HUGEINT', values: [2n ** 127n] } }, /huge_col/],
    ['strings mixed with numbers', { mix_col: ['a', 1] }, /mix_col/],
    ['an object in a plain array', { obj_col: [{}] }, /obj_col/],
    ['a string instead of an array', { str_col: 'abc' }, /str_col/],
    ['a Map instead of an array', { map_col: new Map([[1, 1]]) }, /map_col/],
    ['an unknown column type', { typ_col: { type: 'INT4096', values: [1] } }, /typ_col/],
    ['a valid mask of another length', { mask_col: { type: 'INTEGER', values: Int32Array.of(1, 2), valid: [true] } }, /mask_col/],
    ['a typed array of another width', { width_col: { type: 'INTEGER', values: Float64Array.of(1.5) } }, /width_col/],
    ['a DATE that is not a date', { date_col: { type: 'DATE', values: ['not a date'] } }, /date_col/],
    ['an invalid Date', { inv_col: [new Date(NaN)] }, /inv_col/],
  ];

  it.each(BAD_COLUMNS)('rejects %s, naming the column', async (_label, table, names) => {
    const error = catchLaneQLError(() => db().register('bad_table', table as ColumnsInput));
    expect(error.message).toMatch(names);
    catchLaneQLError(() => db().query('SELECT * FROM bad_table'));
    await expectUsable(db());
  });

  it('rejects an empty column name, bad table names and non-tables', async () => {
    for (const call of [
      () => db().register('t_empty_col', { '': [1] }),
      () => db().register('', { a: [1] }),
      () => db().register(42 as unknown as string, { a: [1] }),
      () => db().register('t_null', null as unknown as ColumnsInput),
      () => db().register('t_number', 42 as unknown as ColumnsInput),
    ]) {
      catchLaneQLError(call);
    }
    await expectUsable(db());
  });
});
