// The corpus runner's value spelling against the native engine's. Every expected string here was
// printed by the native CLI (build/native/native-cli/laneql -c "SELECT CAST('<v>' AS DOUBLE)"
// --format tsv, and likewise FLOAT, DATE '1970-01-01' + <days>, CAST('<text>' AS TIMESTAMP)), so
// these tests pin format-value.ts to FormatValue(kText) without needing the package or the CLI.
// (A one-off run over 20,000 random doubles, 20,000 random floats and 5,000 dates from 6245 BC
// to 10183 AD also matched the CLI exactly.)
import { describe, expect, it } from 'vitest';
import {
  checkColumnKind,
  formatCell,
  formatDate,
  formatDouble,
  formatFloat,
  formatTimestampMicros,
  formatTimestampSeconds,
  nanSignAt,
} from './format-value.js';

describe('DOUBLE', () => {
  it.each([
    ['0.1', '0.1'],
    ['1e21', '1e+21'],
    ['1e-7', '1e-07'],
    ['123456789012345680000', '1.2345678901234568e+20'],
    ['-0.0', '-0.0'],
    ['0.0', '0.0'],
    ['Infinity', 'inf'],
    ['-Infinity', '-inf'],
    ['5e-324', '5e-324'],
    ['1.7976931348623157e308', '1.7976931348623157e+308'],
    ['2.2250738585072014e-308', '2.2250738585072014e-308'],
    ['1.0', '1.0'],
    ['-1.0', '-1.0'],
    ['100', '100.0'],
    ['1e15', '1000000000000000.0'],
    ['9999999999999998', '9999999999999998.0'],
    ['9007199254740993', '9007199254740992.0'],
    ['1e16', '1e+16'],
    ['1e22', '1e+22'],
    ['9.223372036854776e18', '9.223372036854776e+18'],
    ['1e100', '1e+100'],
    ['0.0001', '0.0001'],
    ['9.999999999999999e-5', '9.999999999999999e-05'],
    ['0.00001', '1e-05'],
    ['0.001234', '0.001234'],
    ['2.5', '2.5'],
    ['-2.3333333333333335', '-2.3333333333333335'],
    ['0.3', '0.3'],
    ['123.456', '123.456'],
    ['-1e-300', '-1e-300'],
  ])('%s reads %s', (literal, expected) => {
    expect(formatDouble(Number(literal))).toBe(expected);
  });

  it('spells NaN with its sign bit: nan, and -nan (0/0 on x86)', () => {
    expect(formatDouble(NaN)).toBe('nan');
    expect(formatDouble(NaN, true)).toBe('-nan');
    const values = new Float64Array([NaN, NaN, -1]);
    new DataView(values.buffer).setBigUint64(8, 0xfff8000000000000n, true);
    expect([0, 1, 2].map((row) => formatCell('DOUBLE', values, row))).toEqual([
      'nan',
      '-nan',
      '-1.0',
    ]);
  });
});

describe('FLOAT', () => {
  it.each([
    ['0.1', '0.1'],
    ['3.4028235e38', '3.4028235e+38'],
    ['1e-45', '1e-45'],
    ['1.17549435e-38', '1.1754944e-38'],
    ['16777216', '16777216.0'],
    ['16777217', '16777216.0'],
    ['0.375', '0.375'],
    ['1.1', '1.1'],
    ['3.14159', '3.14159'],
    ['1e10', '10000000000.0'],
    ['1e15', '1000000000000000.0'],
    ['1e16', '1e+16'],
    ['100000000', '100000000.0'],
    ['1e-4', '0.0001'],
    ['1e-5', '1e-05'],
    ['123456.79', '123456.79'],
    ['-2.5', '-2.5'],
    ['0.3', '0.3'],
    ['0.33333334', '0.33333334'],
    ['2.7182817', '2.7182817'],
    ['-0.0', '-0.0'],
    ['7.0', '7.0'],
    // Two 7-digit decimals read back as this float (8589973504); the closer one is printed.
    ['8.589973e9', '8589974000.0'],
    ['-Infinity', '-inf'],
  ])('%s reads %s', (literal, expected) => {
    expect(formatFloat(Math.fround(Number(literal)))).toBe(expected);
  });

  it('spells NaN with its sign bit', () => {
    const values = new Float32Array([NaN, NaN, 0.1]);
    new DataView(values.buffer).setUint32(4, 0xffc00000, true);
    expect([0, 1, 2].map((row) => nanSignAt(values, row))).toEqual([false, true, false]);
    expect([0, 1, 2].map((row) => formatCell('FLOAT', values, row))).toEqual([
      'nan',
      '-nan',
      '0.1',
    ]);
  });
});

describe('DATE', () => {
  it.each([
    [0, '1970-01-01'],
    [-1, '1969-12-31'],
    [11017, '2000-03-01'],
    [19782, '2024-02-29'],
    [-25567, '1900-01-01'],
    [2932896, '9999-12-31'],
    [3000000, '10183-09-21'],
    [-719162, '0001-01-01'],
    // Year 0 is 1 BC, year -1 is 2 BC.
    [-719163, '0001-12-31 (BC)'],
    [-719528, '0001-01-01 (BC)'],
    [-719529, '0002-12-31 (BC)'],
    [-1000000, '0769-02-04 (BC)'],
    [-3000000, '6245-04-12 (BC)'],
    [2 ** 31 - 1, 'infinity'],
    [-(2 ** 31 - 1), '-infinity'],
  ])('%i reads %s', (days, expected) => {
    expect(formatDate(days)).toBe(expected);
  });
});

describe('TIMESTAMP', () => {
  // Microseconds from Python's datetime (an independent count), text from the CLI.
  it.each([
    [0n, '1970-01-01 00:00:00'],
    [-1n, '1969-12-31 23:59:59.999999'],
    [1373891696120000n, '2013-07-15 12:34:56.12'],
    [1373891696000100n, '2013-07-15 12:34:56.0001'],
    [946684800500000n, '2000-01-01 00:00:00.5'],
    [-2203843545000000n, '1900-03-01 13:14:15'],
    [-62135596800000000n, '0001-01-01 00:00:00'],
    [-62135596800500000n, '0001-12-31 (BC) 23:59:59.5'],
    [253402300799999999n, '9999-12-31 23:59:59.999999'],
    [2n ** 63n - 1n, 'infinity'],
    [-(2n ** 63n - 1n), '-infinity'],
  ])('%i µs reads %s', (micros, expected) => {
    expect(formatTimestampMicros(micros)).toBe(expected);
  });

  it('TIMESTAMP_S counts seconds', () => {
    expect(formatTimestampSeconds(-1n)).toBe('1969-12-31 23:59:59');
    expect(formatTimestampSeconds(1373891696n)).toBe('2013-07-15 12:34:56');
    expect(formatTimestampSeconds(-62135596801n)).toBe('0001-12-31 (BC) 23:59:59');
  });
});

describe('formatCell', () => {
  it('reads each type from the column kind the package contract names', () => {
    expect(formatCell('TINYINT', Int8Array.of(-128), 0)).toBe('-128');
    expect(formatCell('UBIGINT', BigUint64Array.of(2n ** 64n - 1n), 0)).toBe(
      '18446744073709551615',
    );
    expect(formatCell('BIGINT', BigInt64Array.of(-(2n ** 63n)), 0)).toBe('-9223372036854775808');
    expect(formatCell('HUGEINT', [-(2n ** 127n)], 0)).toBe(
      '-170141183460469231731687303715884105728',
    );
    expect(formatCell('BOOLEAN', Uint8Array.of(0, 1), 1)).toBe('true');
    expect(formatCell('DATE', Int32Array.of(19782), 0)).toBe('2024-02-29');
    expect(formatCell('TIMESTAMP', BigInt64Array.of(1373891696120000n), 0)).toBe(
      '2013-07-15 12:34:56.12',
    );
    expect(formatCell('VARCHAR', ['Привет'], 0)).toBe('Привет');
  });

  it('refuses a column of another kind or a type it does not know', () => {
    expect(() => checkColumnKind('DOUBLE', Float64Array.of(1))).not.toThrow();
    expect(() => checkColumnKind('DOUBLE', [1])).toThrow(/Float64Array/);
    expect(() => checkColumnKind('BIGINT', Int32Array.of(1))).toThrow(/BigInt64Array/);
    expect(() => checkColumnKind('DECIMAL', [1])).toThrow(/not one the runner knows/);
    expect(() => formatCell('VARCHAR', [null], 0)).toThrow(/holds null/);
  });
});

// Lists: the expected texts are DuckDB's (the .venv's duckdb 2.0.0, CAST(<list> AS VARCHAR)),
// which the native runner's FormatValue follows. The elements come as the package hands them
// out (QueryResult.column() of a list column: one array per row, each element as toArray()'s
// rows hold that type's values).
describe('lists', () => {
  it.each([
    ['DOUBLE[]', [2.25, 4.5, 6.75], '[2.25, 4.5, 6.75]'],
    ['DOUBLE[]', [NaN, Infinity, -0, 1e21, 100], '[nan, inf, -0.0, 1e+21, 100.0]'],
    ['FLOAT[]', [Math.fround(0.1), 100], '[0.1, 100.0]'],
    ['BIGINT[]', [1n, 5n, 9n], '[1, 5, 9]'],
    ['INTEGER[]', [1, 2, 3], '[1, 2, 3]'],
    ['TINYINT[]', [-1], '[-1]'],
    ['UBIGINT[]', [2n ** 64n - 1n], '[18446744073709551615]'],
    ['HUGEINT[]', [1n, -(2n ** 127n)], '[1, -170141183460469231731687303715884105728]'],
    ['INTEGER[]', [], '[]'],
    ['DECIMAL(2,1)[]', ['1.5', '2.5'], '[1.5, 2.5]'],
    ['DECIMAL(18,3)[]', ['-0.050'], '[-0.050]'],
    // No integer digits: DuckDB drops the 0, as for a DECIMAL(1,1) value alone.
    ['DECIMAL(1,1)[]', ['0.5'], '[.5]'],
    ['BOOLEAN[]', [true, false], '[true, false]'],
    ['DATE[]', [new Date(Date.UTC(2024, 1, 29)), new Date(0)], '[2024-02-29, 1970-01-01]'],
    // Text with a colon or a parenthesis is quoted inside a list.
    ['DATE[]', [new Date(-719163 * 86_400_000)], "['0001-12-31 (BC)']"],
    ['TIMESTAMP[]', [new Date(Date.UTC(2013, 6, 15, 12, 34, 56, 120))], "['2013-07-15 12:34:56.12']"],
    ['TIMESTAMP_S[]', [new Date(Date.UTC(2013, 6, 15, 12, 34, 56))], "['2013-07-15 12:34:56']"],
    ['TIME[]', [14706500000n], "['04:05:06.5']"],
    [
      'INTERVAL[]',
      [{ months: 0, days: 1, micros: 0n }, { months: 14, days: 0, micros: 0n }, { months: 0, days: 1, micros: 14706000000n }],
      "[1 day, 1 year 2 months, '1 day 04:05:06']",
    ],
  ] as [string, unknown[], string][])('%s %o reads %s', (type, list, expected) => {
    expect(formatCell(type, [list], 0)).toBe(expected);
  });
});

describe('list columns', () => {
  it('reads one array per row, NULL rows aside', () => {
    const column = [[3n, 9n], null, []];
    expect(() => checkColumnKind('BIGINT[]', column)).not.toThrow();
    expect([0, 2].map((row) => formatCell('BIGINT[]', column, row))).toEqual(['[3, 9]', '[]']);
  });

  it('refuses another container, a non-array row, lists of text and lists of lists', () => {
    expect(() => checkColumnKind('DOUBLE[]', Float64Array.of(1))).toThrow(/Array/);
    expect(() => formatCell('DOUBLE[]', ['[1.5]'], 0)).toThrow(/holds \[1.5\]/);
    expect(() => checkColumnKind('VARCHAR[]', [['a']])).toThrow(/not one the runner knows/);
    expect(() => checkColumnKind('INTEGER[][]', [[[1]]])).toThrow(/not one the runner knows/);
    expect(() => formatCell('DATE[]', [[19782]], 0)).toThrow(/not a Date/);
    expect(() => formatCell('TIMESTAMP[]', [[new Date(NaN)]], 0)).toThrow(/invalid Date/);
  });
});
