// registerCSV(): text and bytes, the header / delimiter / NULL / schema options, quoting, and bad
// rows (a LaneQLError that says line:column, or skipped with skipBadRows).
import { describe, expect, it } from 'vitest';
import { catchLaneQLError, expectUsable, nullRows, valuesOf } from './api-helpers.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

const MIXED =
  'id,price,name,day,ok,at\n' +
  '1,2.5,apple,2013-07-15,true,2013-07-15 12:00:00\n' +
  '2,,"pear, green",2013-07-16,false,\n' +
  '3,-1e3,"say ""hi""",,,2013-07-16 00:00:01.5\n';

describe.each(NODE_FLAVOURS)('flavour %s: registerCSV()', (flavour) => {
  const db = useLaneQL({ flavour });

  it('reads text with a detected header, inferring the types, and returns the row count', () => {
    expect(db().registerCSV('mixed', MIXED)).toBe(3);
    const result = db().query('SELECT * FROM mixed ORDER BY id');
    expect(result.columnNames).toEqual(['id', 'price', 'name', 'day', 'ok', 'at']);
    expect(result.columnTypes).toEqual(['BIGINT', 'DOUBLE', 'VARCHAR', 'DATE', 'BOOLEAN', 'TIMESTAMP']);
    expect(result.toArray()).toEqual([
      { id: 1n, price: 2.5, name: 'apple', day: new Date(Date.UTC(2013, 6, 15)), ok: true, at: new Date(Date.UTC(2013, 6, 15, 12)) },
      { id: 2n, price: null, name: 'pear, green', day: new Date(Date.UTC(2013, 6, 16)), ok: false, at: null },
      { id: 3n, price: -1000, name: 'say "hi"', day: null, ok: null, at: new Date(Date.UTC(2013, 6, 16, 0, 0, 1, 500)) },
    ]);
    expect(valuesOf(result.column('at'))).toEqual([1373889600000000n, 0n, 1373932801500000n]);
  });

  it('reads UTF-8 bytes (with a byte-order mark) and detects the delimiter', () => {
    const text = 'name;n\nПривет;1\n😀 ёж;2\n';
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    expect(db().registerCSV('bytes', bytes)).toBe(2);
    const result = db().query('SELECT name, n FROM bytes ORDER BY n');
    expect(result.columnNames).toEqual(['name', 'n']);
    expect(result.toArray()).toEqual([
      { name: 'Привет', n: 1n },
      { name: '😀 ёж', n: 2n },
    ]);
  });

  it('takes the header option over detection', () => {
    expect(db().registerCSV('numbers', '1,2\n3,4\n')).toBe(2);
    expect(db().query('SELECT * FROM numbers').columnNames).toEqual(['column0', 'column1']);
    expect(db().registerCSV('numbers', '1,2\n3,4\n', { header: true })).toBe(1);
    const headed = db().query('SELECT * FROM numbers');
    expect(headed.columnNames).toEqual(['1', '2']);
    expect(headed.toArray()).toEqual([{ '1': 3n, '2': 4n }]);
    expect(db().registerCSV('words', 'a,b\nc,d\n', { header: false })).toBe(2);
    const words = db().query('SELECT * FROM words ORDER BY column0');
    expect(words.toArray()).toEqual([
      { column0: 'a', column1: 'b' },
      { column0: 'c', column1: 'd' },
    ]);
  });

  it('uses the delimiter it is given', () => {
    expect(db().registerCSV('piped', 'a|b\n1|x,y\n2|z\n', { delimiter: '|' })).toBe(2);
    expect(db().query('SELECT b FROM piped ORDER BY a').column('b')).toEqual(['x,y', 'z']);
    expect(db().registerCSV('tabbed', 'a\tb\n1\tp;q\n', { delimiter: '\t' })).toBe(1);
    expect(db().query('SELECT * FROM tabbed').toArray()).toEqual([{ a: 1n, b: 'p;q' }]);
  });

  it('reads nullString unquoted as NULL, and empty unquoted fields as NULL', () => {
    const csv = 'a,b,c\n1,NA,x\nNA,"NA",\n2,,""\n';
    const rows = db().registerCSV('nulls', csv, { nullString: 'NA', columns: { a: 'INTEGER', b: 'VARCHAR', c: 'VARCHAR' } });
    expect(rows).toBe(3);
    const result = db().query('SELECT a, b, c FROM nulls');
    expect(result.toArray()).toEqual([
      { a: 1, b: null, c: 'x' },
      { a: null, b: 'NA', c: null },
      { a: 2, b: null, c: '' },
    ]);
    expect(nullRows(result, 'a')).toEqual([1]);
  });

  it('takes the columns and their types from `columns`, skipping a header', () => {
    const csv = 'x,y,z,w\n7,hello,2013-07-15,2013-07-15 12:00:00\n-8,,1999-12-31,\n';
    const columns = { id: 'SMALLINT', label: 'VARCHAR', day: 'DATE', ts: 'TIMESTAMP' } as const;
    expect(db().registerCSV('typed_csv', csv, { columns })).toBe(2);
    const result = db().query('SELECT * FROM typed_csv ORDER BY id');
    expect(result.columnNames).toEqual(['id', 'label', 'day', 'ts']);
    expect(result.columnTypes).toEqual(['SMALLINT', 'VARCHAR', 'DATE', 'TIMESTAMP']);
    expect(result.column('id')).toEqual(Int16Array.of(-8, 7));
    expect(result.column('day')).toEqual(Int32Array.of(10956, 15901));
    expect(result.column('label')).toEqual([null, 'hello']);
    const noHeader = db().registerCSV('typed_csv2', '5,a\n6,b\n', { columns: { n: 'UTINYINT', s: 'VARCHAR' }, header: false });
    expect(noHeader).toBe(2);
    expect(db().query('SELECT * FROM typed_csv2').columnTypes).toEqual(['UTINYINT', 'VARCHAR']);
  });

  it('takes the columns from a CREATE TABLE statement', () => {
    const createTable = 'CREATE TABLE sales (\n  id SMALLINT NOT NULL,\n  amount DOUBLE,\n  tag VARCHAR(10)\n);';
    const rows = db().registerCSV('sales', 'id,amount,tag\n1,2.25,a\n2,3,b\n', { createTable });
    expect(rows).toBe(2);
    const result = db().query('SELECT id, amount, tag FROM sales ORDER BY id');
    expect(result.columnTypes).toEqual(['SMALLINT', 'DOUBLE', 'VARCHAR']);
    expect(result.toArray()).toEqual([
      { id: 1, amount: 2.25, tag: 'a' },
      { id: 2, amount: 3, tag: 'b' },
    ]);
  });

  it('reads quoted fields: delimiters, doubled quotes, newlines, CRLF, empty strings', () => {
    const csv = 'id,text\r\n1,"line one\nline two"\r\n2,"a ""quoted"", word"\r\n3,""\r\n4,plain\r\n';
    expect(db().registerCSV('quoted', csv, { columns: { id: 'INTEGER', text: 'VARCHAR' } })).toBe(4);
    const texts = db().query('SELECT text FROM quoted ORDER BY id').column('text');
    expect(texts).toEqual(['line one\nline two', 'a "quoted", word', '', 'plain']);
  });

  const BAD_ROWS: [string, string, number, number, RegExp][] = [
    ['a value of the wrong type', 'a,b\n1,2\nx,3\n4,5\n', 3, 1, /'x' is not a valid INTEGER/],
    ['a bad value in the second field', 'a,b\n1,2\n3,zz\n4,5\n', 3, 3, /'zz' is not a valid INTEGER/],
    ['a row after a quoted newline', 'a,b\n1,"x\ny"\nzz,2\n4,5\n', 4, 1, /'zz' is not a valid INTEGER/],
  ];

  it.each(BAD_ROWS)('throws LaneQLError at line:column for %s', async (_label, csv, line, column, problem) => {
    const columns = { a: 'INTEGER', b: csv.includes('"') ? 'VARCHAR' : 'INTEGER' } as const;
    const error = catchLaneQLError(() => db().registerCSV('bad_csv', csv, { columns }));
    expect(error.message).toMatch(new RegExp(`\\b${line}:${column}\\b|line ${line}, column ${column}\\b`));
    expect(error.message).toMatch(problem);
    expect([error.line, error.column]).toEqual([line, column]);
    catchLaneQLError(() => db().query('SELECT * FROM bad_csv'));
    // skipBadRows drops the bad row and reads the others.
    expect(db().registerCSV('skipped_csv', csv, { columns, skipBadRows: true })).toBe(2);
    expect(valuesOf(db().query('SELECT a FROM skipped_csv ORDER BY a').column('a'))).toEqual([1, 4]);
    await expectUsable(db());
  });

  it('throws LaneQLError for a wrong field count and an unterminated quote', async () => {
    const short = catchLaneQLError(() => db().registerCSV('bad_csv', 'a,b\n1,2\n3\n', { columns: { a: 'INTEGER', b: 'INTEGER' } }));
    expect(short.line).toBe(3);
    expect(short.message).toMatch(/expected 2 fields, found 1/);
    const open = catchLaneQLError(() => db().registerCSV('bad_csv', 'a,b\n1,"x\n'));
    expect(open.line).toBe(2);
    expect(open.message).toMatch(/unterminated/);
    await expectUsable(db());
  });

  it('throws LaneQLError for bad arguments', async () => {
    for (const call of [
      () => db().registerCSV('', 'a\n1\n'),
      () => db().registerCSV('x', 42 as unknown as string),
      () => db().registerCSV('x', 'a,b\n1,2\n', { delimiter: ',,' }),
      () => db().registerCSV('x', 'a,b\n1,2\n', { columns: { a: 'INT4096' as 'INTEGER', b: 'INTEGER' } }),
      () => db().registerCSV('x', 'a,b\n1,2\n', { createTable: 'CREATE TABLE x (a INTEGER' }),
      () => db().registerCSV('x', 'a,b\n1,2\n', { columns: { only: 'INTEGER' } }),
    ]) {
      catchLaneQLError(call);
    }
    catchLaneQLError(() => db().query('SELECT * FROM x'));
    await expectUsable(db());
  });
});
