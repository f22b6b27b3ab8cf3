// The wasm corpus runner's own logic, independent of the SQL engine: the same cases as the native
// runner's tests (tests/sql/runner/sql_corpus_runner_test.cc) with the same expected messages,
// so that both runners read every file alike; plus what only JavaScript gets wrong by default
// (float32 parsing with one rounding, NaN signs).
import { describe, expect, it } from 'vitest';
import { checkRecord, resultRows, type ResultColumns } from './record-check.js';
import { buildInlineTable, parseDate, parseFloating, parseTimestamp } from './table-builder.js';
import { parseTestFile, type CorpusRecord, type QueryRecord } from './test-file.js';

function parseError(text: string): string {
  try {
    parseTestFile('f.test', text);
  } catch (error) {
    expect((error as Error).name).toBe('CorpusFormatError');
    return (error as Error).message;
  }
  throw new Error(`parsed: ${text}`);
}

describe('file parser', () => {
  it('reads tables, hits and records', () => {
    const file = parseTestFile(
      'f.test',
      '# a comment\n' +
        'table t(a INTEGER, s VARCHAR)\n' +
        '1 | x y\n' +
        'NULL|(empty)\n' +
        '\n' +
        'hits rows=100 seed=7\n' +
        '\n' +
        'query unordered BIGINT,VARCHAR\n' +
        'SELECT a,\n' +
        '  s FROM t\n' +
        '----\n' +
        '1\tx y\n' +
        'NULL\t(empty)\n' +
        '\n' +
        'query ordered\n' +
        'SELECT 1 FROM t WHERE false\n' +
        '----\n' +
        '\n' +
        'error\n' +
        'SELECT\n' +
        '----\n' +
        'syntax error\n' +
        'second line\n',
    );
    expect(file.tables).toHaveLength(1);
    const table = file.tables[0]!;
    expect(table.name).toBe('t');
    expect(table.columns).toEqual([
      { name: 'a', type: 'INTEGER' },
      { name: 's', type: 'VARCHAR' },
    ]);
    expect(table.rows).toEqual([
      ['1', 'x y'],
      [null, ''],
    ]);
    expect(table.rowLines).toEqual([3, 4]);
    expect(file.hits).toEqual({ line: 6, rows: 100, seed: 7 });
    expect(file.records).toHaveLength(3);
    const [first, second, third] = file.records as [QueryRecord, QueryRecord, CorpusRecord];
    expect(first).toMatchObject({ line: 8, ordered: false, types: ['BIGINT', 'VARCHAR'] });
    expect(first.sql).toBe('SELECT a,\n  s FROM t');
    expect(first.expected).toHaveLength(2);
    expect(second.ordered).toBe(true);
    expect(second.expected).toEqual([]);
    expect(third).toMatchObject({ kind: 'error', unsupported: false });
    expect(third.expected).toEqual(['syntax error', 'second line']);
  });

  it('takes CRLF line ends, `error unsupported` and a default seed', () => {
    const file = parseTestFile(
      'f.test',
      'hits rows=5\r\n\r\nerror unsupported\r\nDELETE FROM t\r\n----\r\nno\r\n',
    );
    expect(file.hits).toEqual({ line: 1, rows: 5, seed: 1 });
    expect(file.records[0]).toMatchObject({ kind: 'error', unsupported: true, line: 3 });
    expect(file.records[0]!.sql).toBe('DELETE FROM t');
    expect(file.records[0]!.expected).toEqual(['no']);
  });

  it.each([
    ['', 'f.test: the file has no records'],
    ['table t(a INTEGER)\n1\n', 'f.test: the file has no records'],
    ['select 1\n', "f.test:1: unknown directive 'select' (expected table, hits, query or error)"],
    ['query ordered\nSELECT 1\n\n', "f.test:1: record has no '----' line after its SQL"],
    ['query ordered\nSELECT 1', "f.test:1: record has no '----' line after its SQL"],
    ['query\nSELECT 1\n----\n1\n', "f.test:1: expected 'query ordered|unordered [tableorder] [TYPE,...]'"],
    ['query sorted\nSELECT 1\n----\n1\n', "f.test:1: expected 'query ordered|unordered [tableorder] [TYPE,...]'"],
    ['query ordered INTEGER,\nSELECT 1\n----\n1\n', "f.test:1: bad type name ''"],
    ['query ordered\n----\n1\n', 'f.test:1: record has no SQL'],
    ['error\nSELECT\n----\n', 'f.test:1: error record has no expected message'],
    ['error maybe\nSELECT\n----\nx\n', "f.test:1: expected 'error' or 'error unsupported'"],
    ['table t(a INTEGER, b TEXT)\n', "f.test:1: unsupported column type 'TEXT'"],
    ['table t(a)\n', "f.test:1: bad column 'a', expected 'name TYPE'"],
    ['table t()\n', "f.test:1: bad column '', expected 'name TYPE'"],
    ['table t a INTEGER\n', "f.test:1: expected 'table name(column TYPE, ...)'"],
    ['table 1t(a INTEGER)\n', "f.test:1: bad table name '1t'"],
    ['table t(a INTEGER, b INTEGER)\n1|2|3\n', "f.test:2: row has 3 values, table 't' has 2 columns"],
    ['table t(a VARCHAR)\n |\n', "f.test:2: row has 2 values, table 't' has 1 columns"],
    ['table t(a VARCHAR, b VARCHAR)\nx|\n', 'f.test:2: empty value: write NULL or (empty)'],
    ['table t(a INTEGER)\n\ntable T(b INTEGER)\n', "f.test:3: table 'T' is declared twice"],
    ['hits seed=1\n', 'f.test:1: hits needs rows=N'],
    ['hits rows=x\n', "f.test:1: expected key=number, got 'rows=x'"],
    ['hits rows\n', "f.test:1: expected key=number, got 'rows'"],
    ['hits rows=1 speed=2\n', "f.test:1: unknown hits option 'speed'"],
    ['hits rows=1\nhits rows=2\n', 'f.test:2: hits is declared twice'],
    ['table hits(a INTEGER)\n\nhits rows=1\n', "f.test:3: table 'hits' is declared twice"],
  ])('rejects %j: %s', (text, message) => {
    expect(parseError(text)).toBe(message);
  });
});

describe('inline values', () => {
  it('parses dates and timestamps as the native runner does', () => {
    expect(parseDate('1970-01-01')).toBe(0);
    expect(parseDate('2000-03-01')).toBe(11017);
    expect(parseDate('1969-12-31')).toBe(-1);
    expect(parseDate('2024-02-29')).toBe(19782);
    expect(parseDate('0001-01-01')).toBe(-719162);
    expect(parseDate('0000-01-01')).toBe(-719528); // 1 BC
    for (const bad of ['2023-02-29', '1900-02-29', '2023-13-01', '2023-1-01', '2023-01-01x']) {
      expect(parseDate(bad), bad).toBeNull();
    }
    expect(parseTimestamp('1970-01-02 00:00:01.5')).toBe(86401500000n);
    expect(parseTimestamp('1969-12-31 23:59:59.999999')).toBe(-1n);
    expect(parseTimestamp('2013-07-15')).toBe(15901n * 86400000000n);
    for (const bad of [
      '2013-07-15 24:00:00',
      '2013-07-15 12:00',
      '2013-07-15 12:00:00.1234567',
      '2013-07-15 12:00:00.',
      '2013-07-15T12:00:00',
      '2013-07-15 ',
    ]) {
      expect(parseTimestamp(bad), bad).toBeNull();
    }
  });

  it('builds typed columns with the physical values register() takes', () => {
    const file = parseTestFile(
      'f.test',
      'table t(i8 TINYINT, u64 UBIGINT, i64 BIGINT, f FLOAT, d DOUBLE, dt DATE, ts TIMESTAMP, ' +
        's VARCHAR, b BOOLEAN)\n' +
        '-128 | 18446744073709551615 | -9223372036854775808 | 0.1 | -0.5 | 2000-02-29 | ' +
        '2013-07-15 12:34:56.12 | Привет | true\n' +
        'NULL | NULL | NULL | NULL | NULL | NULL | NULL | (empty) | NULL\n' +
        '\nquery ordered\nSELECT 1\n----\n1\n',
    );
    expect(buildInlineTable(file.path, file.tables[0]!)).toEqual({
      i8: { type: 'TINYINT', values: [-128, null] },
      u64: { type: 'UBIGINT', values: [18446744073709551615n, null] },
      i64: { type: 'BIGINT', values: [-9223372036854775808n, null] },
      f: { type: 'FLOAT', values: [Math.fround(0.1), null] },
      d: { type: 'DOUBLE', values: [-0.5, null] },
      dt: { type: 'DATE', values: [11016, null] },
      ts: { type: 'TIMESTAMP', values: [1373891696120000n, null] },
      s: { type: 'VARCHAR', values: ['Привет', ''] },
      b: { type: 'BOOLEAN', values: [true, null] },
    });
  });

  it('names line, value, column and type of a bad value', () => {
    const buildError = (type: string, value: string): string => {
      const file = parseTestFile(
        'f.test',
        `table t(c ${type})\n${value}\n\nquery ordered\nSELECT 1\n----\n1\n`,
      );
      try {
        buildInlineTable(file.path, file.tables[0]!);
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error(`built ${value} as ${type}`);
    };
    expect(buildError('TINYINT', '128')).toBe(
      "f.test:2: value '128' of column c (TINYINT): not a value of the type",
    );
    expect(buildError('UINTEGER', '-1')).toBe(
      "f.test:2: value '-1' of column c (UINTEGER): not a value of the type",
    );
    expect(buildError('UBIGINT', '-0')).toBe(
      "f.test:2: value '-0' of column c (UBIGINT): not a value of the type",
    );
    expect(buildError('INTEGER', '1.5')).toBe(
      "f.test:2: value '1.5' of column c (INTEGER): not a value of the type",
    );
    expect(buildError('BIGINT', '9223372036854775808')).toBe(
      "f.test:2: value '9223372036854775808' of column c (BIGINT): not a value of the type",
    );
    expect(buildError('DOUBLE', '1e999')).toBe(
      "f.test:2: value '1e999' of column c (DOUBLE): not a value of the type",
    );
    expect(buildError('FLOAT', '1e39')).toBe(
      "f.test:2: value '1e39' of column c (FLOAT): not a value of the type",
    );
    expect(buildError('DATE', '2023-02-30')).toBe(
      "f.test:2: value '2023-02-30' of column c (DATE): not a date (YYYY-MM-DD)",
    );
    expect(buildError('TIMESTAMP', '2023-02-03T00:00:00')).toBe(
      "f.test:2: value '2023-02-03T00:00:00' of column c (TIMESTAMP): " +
        'not a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])',
    );
    expect(buildError('BOOLEAN', 'yes')).toBe(
      "f.test:2: value 'yes' of column c (BOOLEAN): not a boolean (true or false)",
    );
    expect(buildError('INTEGER, C INTEGER', '1 | 2')).toBe(
      'f.test:1: duplicate column name "C" (the table already has "c")',
    );
  });

  it('reads numbers as strtoll, strtod and strtof do', () => {
    const file = parseTestFile(
      'f.test',
      'table t(i INTEGER, d DOUBLE)\n+7 | +.5\n007 | 1.\n-0 | -0.0\n5 | 1e-400\n5 | -Infinity\n' +
        '5 | NaN\n\nquery ordered\nSELECT 1\n----\n1\n',
    );
    const built = buildInlineTable(file.path, file.tables[0]!);
    expect(built['i']!.values).toEqual([7, 7, 0, 5, 5, 5]);
    expect(built['d']!.values).toEqual([0.5, 1, -0, 0, -Infinity, NaN]);
    expect(Object.is(built['d']!.values[2], -0)).toBe(true);
  });

  // Expected floats from glibc's strtof (via Python's ctypes); Math.fround(Number(text)) rounds
  // twice and gets the first, second and fourth wrong.
  it.each([
    ['1.00000005960464477539062501', 1.0000001192092896],
    ['1.00000017881393432617187499', 1.0000001192092896],
    ['1.000000178813934326171875', 1.000000238418579],
    ['3.4028235677973366e38', 3.4028234663852886e38],
    ['-3.4028235677973366e38', -3.4028234663852886e38],
    ['1e-50', 0],
  ])('rounds %s to float32 once: %f', (text, expected) => {
    expect(parseFloating('FLOAT', text).value).toBe(expected);
  });

  it('refuses a float32 that rounds to infinity, as strtof (ERANGE) does', () => {
    // The exact midpoint between FLT_MAX and 2^128 goes to the even side: infinity.
    expect(() => parseFloating('FLOAT', '340282356779733661637539395458142568448')).toThrow();
  });

  it('keeps the sign of -nan in a typed array', () => {
    const file = parseTestFile(
      'f.test',
      'table t(d DOUBLE, f FLOAT)\n-nan | -nan\nnan | NULL\n\nquery ordered\nSELECT 1\n----\n1\n',
    );
    const built = buildInlineTable(file.path, file.tables[0]!);
    const d = built['d'] as { values: Float64Array; valid: Uint8Array };
    const f = built['f'] as { values: Float32Array; valid: Uint8Array };
    expect(new BigUint64Array(d.values.buffer)).toEqual(
      BigUint64Array.of(0xfff8000000000000n, 0x7ff8000000000000n),
    );
    expect([...d.valid]).toEqual([1, 1]);
    expect(new Uint32Array(f.values.buffer)[0]).toBe(0xffc00000);
    expect([...f.valid]).toEqual([1, 0]);
  });
});

// A hand-built result standing in for QueryResult: BIGINT n = 2, 1, 3; VARCHAR s = 'b', '', NULL.
function twoColumnResult(): ResultColumns {
  const columns = [BigInt64Array.of(2n, 1n, 3n), ['b', '', null]];
  return {
    numRows: 3,
    columnTypes: ['BIGINT', 'VARCHAR'],
    column: (i) => columns[i]!,
    nullMask: (i) => (i === 1 ? Uint8Array.of(0, 0, 1) : null),
  };
}

function query(ordered: boolean, expected: string[], types: string[] = []): QueryRecord {
  return { kind: 'query', line: 1, ordered, types, sql: 'SELECT', expected };
}

describe('record check', () => {
  it('compares rows, their order and types', () => {
    const ok = { ok: true as const, result: twoColumnResult() };
    expect(resultRows(ok.result)).toEqual(['2\tb', '1\t(empty)', '3\tNULL']);
    expect(checkRecord(query(true, ['2\tb', '1\t(empty)', '3\tNULL']), ok)).toBeNull();
    expect(checkRecord(query(false, ['3\tNULL', '2\tb', '1\t(empty)']), ok)).toBeNull();
    // The same rows in another order fail an ordered record.
    expect(checkRecord(query(true, ['1\t(empty)', '2\tb', '3\tNULL']), ok)).toContain(
      'expected (3 rows)',
    );
    // A missing row, an extra row, a wrong value, an empty string written as nothing.
    for (const expected of [
      ['2\tb', '1\t(empty)'],
      ['2\tb', '1\t(empty)', '3\tNULL', '4\tx'],
      ['2\tb', '1\t(empty)', '3\tnull'],
      ['2\tb', '1\t', '3\tNULL'],
    ]) {
      expect(checkRecord(query(false, expected), ok), expected.join(' ')).not.toBeNull();
    }
    const rows = ['2\tb', '1\t(empty)', '3\tNULL'];
    expect(checkRecord(query(true, rows, ['BIGINT', 'VARCHAR']), ok)).toBeNull();
    expect(checkRecord(query(true, rows, ['HUGEINT', 'VARCHAR']), ok)).toContain(
      'actual types:   BIGINT,VARCHAR',
    );
    expect(checkRecord(query(true, rows, ['BIGINT']), ok)).not.toBeNull();
  });

  it('sorts unordered rows as the native runner does, by UTF-8 bytes', () => {
    // U+FF5E sorts before U+1F600 as UTF-8 (EF.. < F0..) but after it as UTF-16 (FF5E > D83D).
    const result: ResultColumns = {
      numRows: 2,
      columnTypes: ['VARCHAR'],
      column: () => ['\u{1F600}', '\uFF5E'],
      nullMask: () => null,
    };
    const report = checkRecord(query(false, ['x', 'y']), { ok: true, result });
    expect(report).toContain('  actual (2 rows):\n    \uFF5E\n    \u{1F600}\n');
  });

  it('matches error messages exactly', () => {
    const record: CorpusRecord = {
      kind: 'error',
      line: 1,
      unsupported: false,
      sql: 'SELECT x',
      expected: ["unknown column 'x'"],
    };
    expect(checkRecord(record, { ok: false, error: "unknown column 'x'" })).toBeNull();
    expect(checkRecord(record, { ok: false, error: "unknown column 'y'" })).toContain(
      "got the error:\n    unknown column 'y'",
    );
    expect(checkRecord(record, { ok: true, result: twoColumnResult() })).toContain(
      'but the query succeeded',
    );
    // A query record fails on an error even when it expects no rows.
    expect(checkRecord(query(true, []), { ok: false, error: 'boom' })).toContain(
      'query failed: boom',
    );
  });
});
