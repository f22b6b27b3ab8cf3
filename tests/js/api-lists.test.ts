// LIST results (DOUBLE[], BIGINT[], DECIMAL(p,s)[], ...): what column(), toArray() and toArrow()
// make of a list column, first from hand-made buffers in the kernel's layout (every element
// type, NULL and empty lists), then from SQL that returns lists on every flavour; and register()
// refusing lists, which tables cannot hold.
import * as arrow from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import { LaneQL, QueryResult } from '../../bindings-js/dist/index.js';
import { catchLaneQLError, expectUsable, nullRows, rejectionOf } from './api-helpers.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

type RawResult = ConstructorParameters<typeof QueryResult>[0];
type RawColumn = RawResult['columns'][number];

// The kernel's type ids (kernel/include/laneql/types.h) of the element types used here.
const TYPE = {
  INTEGER: 2, BIGINT: 3, UBIGINT: 7, FLOAT: 8, DOUBLE: 9, DATE: 10, TIMESTAMP_S: 11, TIMESTAMP: 12,
  HUGEINT: 15, BOOLEAN: 16, TIME: 17, INTERVAL: 18,
} as const;
const LIST_TAG = 0x8000;
const decimalId = (precision: number, scale: number): number => 0x4000 | (precision << 8) | scale;
const MS_PER_DAY = 86_400_000;

function bytesOf(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** 16-byte little-endian two's complement values (HUGEINT, DECIMAL, and INTERVAL's packing). */
function int128s(values: bigint[]): BigUint64Array {
  return BigUint64Array.from(values.flatMap((v) => [BigInt.asUintN(64, v), BigInt.asUintN(64, v >> 64n)]));
}

/** An INTERVAL as the kernel packs it: months · 2^96 + days · 2^64 + micros. */
function interval(months: number, days: number, micros: bigint): bigint {
  return (BigInt(months) << 96n) + (BigInt(days) << 64n) + micros;
}

/** A list column in the kernel's layout: rows' elements packed, byte offsets, a validity bitmask
 *  (64-bit words, bit set = not NULL) when a row is NULL. */
function listColumn(name: string, elementType: number, rows: (ArrayBufferView | null)[]): RawColumn {
  const offsets = new Int32Array(rows.length + 1);
  rows.forEach((row, i) => (offsets[i + 1] = offsets[i]! + (row?.byteLength ?? 0)));
  const values = new Uint8Array(offsets[rows.length]!);
  rows.forEach((row, i) => row && values.set(bytesOf(row), offsets[i]!));
  let validity: ArrayBuffer | null = null;
  if (rows.includes(null)) {
    const bits = new Uint8Array(Math.ceil(rows.length / 64) * 8);
    rows.forEach((row, i) => row && (bits[i >> 3]! |= 1 << (i & 7)));
    validity = bits.buffer;
  }
  return { name, typeId: LIST_TAG | elementType, values: values.buffer, offsets: offsets.buffer, validity };
}

/** A plain column of the element type holding `elements` (what toArrow() makes of one is what
 *  a list's elements must become). */
function plainColumn(name: string, typeId: number, elements: ArrayBufferView): RawColumn {
  return { name, typeId, values: bytesOf(elements).slice().buffer, offsets: null, validity: null };
}

function resultOf(numRows: number, columns: RawColumn[]): QueryResult {
  return new QueryResult({ numRows, columns, elapsedMs: 0, profile: null });
}

/** An Arrow vector's rows, each list row as a plain array, NULLs as null. */
function arrowRows(vector: arrow.Vector | null): unknown[] {
  expect(vector).not.toBeNull();
  const v = vector as arrow.Vector;
  return Array.from({ length: v.length }, (_, i) => {
    const row = v.get(i) as arrow.Vector | null;
    return row === null ? null : Array.from(row as Iterable<unknown>);
  });
}

/** A plain Arrow vector's values. */
function arrowValues(vector: arrow.Vector | null): unknown[] {
  const v = vector as arrow.Vector;
  return Array.from({ length: v.length }, (_, i) => v.get(i) as unknown);
}

// Element type, its name, three rows of elements (the middle one NULL, the last empty unless
// the type needs more rows), and the elements as a row object holds them.
const ELEMENT_CASES: [number, string, ArrayBufferView[], unknown[][]][] = [
  [TYPE.DOUBLE, 'DOUBLE', [Float64Array.of(2.25, 4.5, -0), Float64Array.of()], [[2.25, 4.5, -0], []]],
  [TYPE.FLOAT, 'FLOAT', [Float32Array.of(0.5, -1.25)], [[0.5, -1.25]]],
  [TYPE.INTEGER, 'INTEGER', [Int32Array.of(1, 2, 3), Int32Array.of(-2147483648)], [[1, 2, 3], [-2147483648]]],
  [TYPE.BIGINT, 'BIGINT', [BigInt64Array.of(3n, 9n), BigInt64Array.of(-(2n ** 63n))], [[3n, 9n], [-(2n ** 63n)]]],
  [TYPE.UBIGINT, 'UBIGINT', [BigUint64Array.of(2n ** 64n - 1n)], [[2n ** 64n - 1n]]],
  [TYPE.BOOLEAN, 'BOOLEAN', [Uint8Array.of(1, 0, 1)], [[true, false, true]]],
  [TYPE.DATE, 'DATE', [Int32Array.of(19782, 0, -1)], [[new Date(19782 * MS_PER_DAY), new Date(0), new Date(-MS_PER_DAY)]]],
  [TYPE.TIMESTAMP, 'TIMESTAMP', [BigInt64Array.of(1373889600123456n, -1n)], [[new Date(1373889600123), new Date(-1)]]],
  [TYPE.TIMESTAMP_S, 'TIMESTAMP_S', [BigInt64Array.of(1373889600n)], [[new Date(1373889600000)]]],
  [TYPE.TIME, 'TIME', [BigInt64Array.of(14706500000n, 0n)], [[14706500000n, 0n]]],
  [TYPE.HUGEINT, 'HUGEINT', [int128s([-(2n ** 127n), 1n])], [[-(2n ** 127n), 1n]]],
  [decimalId(18, 3), 'DECIMAL(18,3)', [int128s([1500n, -50n, 0n])], [['1.500', '-0.050', '0.000']]],
  [
    TYPE.INTERVAL, 'INTERVAL', [int128s([interval(14, -1, 5n), interval(0, 0, -1n)])],
    [[{ months: 14, days: -1, micros: 5n }, { months: 0, days: 0, micros: -1n }]],
  ],
];

describe('list columns in the kernel layout', () => {
  describe.each(ELEMENT_CASES)('element type %i (%s)', (typeId, name, rows, expected) => {
    // Every row of the case, then a NULL one, then an empty one.
    const rawRows: (ArrayBufferView | null)[] = [...rows, null, new Uint8Array(0)];
    const lists: (unknown[] | null)[] = [...expected, null, []];
    const result = (): QueryResult => resultOf(rawRows.length, [listColumn('l', typeId, rawRows)]);

    it('is named as DuckDB names it: the element type with []', () => {
      expect(result().columnTypes).toEqual([`${name}[]`]);
    });

    it('column() holds one array per row, each element as a row object holds the type; null for NULL', () => {
      const r = result();
      expect(r.column('l')).toEqual(lists);
      expect(r.column(0)).toBe(r.column('l'));
      expect(nullRows(r, 'l')).toEqual([rows.length]);
      expect(r.isNull('l', rows.length)).toBe(true);
      expect(r.isNull('l', rows.length + 1)).toBe(false);
    });

    it('toArray() rows hold the same arrays', () => {
      expect(result().toArray()).toEqual(lists.map((l) => ({ l })));
    });

    it("toArrow() gives an Arrow List of the element type's Arrow type, with the same values", async () => {
      const table = await result().toArrow();
      const field = table.schema.fields[0]!;
      expect(field.type).toBeInstanceOf(arrow.List);
      const child = (field.type as arrow.List).children[0]!;
      expect(child.name).toBe('item');
      // The elements as toArrow() makes a plain column of the element type: the same Arrow type
      // and the same values, row by row.
      const elements = new Uint8Array(rows.flatMap((r) => Array.from(bytesOf(r))));
      const plainTable = await resultOf(expected.flat().length, [plainColumn('p', typeId, elements)]).toArrow();
      expect(String(child.type)).toBe(String(plainTable.schema.fields[0]!.type));
      const flat = arrowValues(plainTable.getChild('p'));
      let at = 0;
      const expectedRows = expected.map((e) => flat.slice(at, (at += e.length)));
      expect(arrowRows(table.getChild('l'))).toEqual([...expectedRows, null, []]);
      expect(table.getChild('l')!.nullCount).toBe(1);
    });
  });

  it('reads zero rows and several list columns side by side', async () => {
    const empty = resultOf(0, [listColumn('l', TYPE.DOUBLE, [])]);
    expect(empty.column('l')).toEqual([]);
    expect(empty.toArray()).toEqual([]);
    expect((await empty.toArrow()).numRows).toBe(0);

    const both = resultOf(2, [
      listColumn('d', TYPE.DOUBLE, [Float64Array.of(1.5), Float64Array.of(2.5, 3.5)]),
      listColumn('b', TYPE.BIGINT, [null, BigInt64Array.of(7n)]),
    ]);
    expect(both.toArray()).toEqual([{ d: [1.5], b: null }, { d: [2.5, 3.5], b: [7n] }]);
  });
});

describe.each(NODE_FLAVOURS)('flavour %s: lists', (flavour) => {
  const db = useLaneQL({ flavour });

  it('quantile_cont with a list of fractions: one DOUBLE[]', async () => {
    const result = db().query('SELECT quantile_cont(x, [0.25, 0.5, 0.75]) AS q FROM range(1, 11) t(x)');
    expect(result.numRows).toBe(1);
    expect(result.columnTypes).toEqual(['DOUBLE[]']);
    expect(result.column('q')).toEqual([[3.25, 5.5, 7.75]]);
    expect(result.toArray()).toEqual([{ q: [3.25, 5.5, 7.75] }]);
    expect(result.nullMask('q')).toBeNull();
    const table = await result.toArrow();
    expect(String(table.schema.fields[0]!.type)).toBe('List<Float64>');
    expect(arrowRows(table.getChild('q'))).toEqual([[3.25, 5.5, 7.75]]);
  });

  it('quantile_disc per group: BIGINT[] lists, as DuckDB picks them', async () => {
    const result = db().query(
      'SELECT g, quantile_disc(x, [0.5, 0.9]) AS q FROM (SELECT x % 3 AS g, x FROM range(10) t(x)) GROUP BY g ORDER BY g',
    );
    expect(result.columnTypes).toEqual(['BIGINT', 'BIGINT[]']);
    // Group 0 is 0, 3, 6, 9: the values at ceil(4 · 0.5) - 1 = 1 and ceil(4 · 0.9) - 1 = 3.
    const expected = [[3n, 9n], [4n, 7n], [5n, 8n]];
    expect(result.column('q')).toEqual(expected);
    expect(result.toArray()).toEqual(expected.map((q, g) => ({ g: BigInt(g), q })));
    const table = await result.toArrow();
    expect(String(table.schema.fields[1]!.type)).toBe('List<Int64>');
    expect(arrowRows(table.getChild('q'))).toEqual(expected);
  });

  it('gives a NULL list for a group whose values are all NULL', async () => {
    db().register('list_groups', {
      g: Int32Array.of(1, 1, 2, 2, 2, 3),
      x: { type: 'BIGINT', values: [null, null, 10n, 30n, 20n, 7n] },
    });
    const result = db().query(
      'SELECT g, quantile_disc(x, [0.5, 0.9]) AS d, quantile_cont(x, [0.5, 0.9]) AS c FROM list_groups GROUP BY g ORDER BY g',
    );
    expect(result.columnTypes).toEqual(['INTEGER', 'BIGINT[]', 'DOUBLE[]']);
    expect(result.column('d')).toEqual([null, [20n, 30n], [7n, 7n]]);
    expect(result.column('c')).toEqual([null, [20, 28], [7, 7]]);
    expect(nullRows(result, 'd')).toEqual([0]);
    expect(nullRows(result, 'c')).toEqual([0]);
    expect(result.toArray()[0]).toEqual({ g: 1, d: null, c: null });
    const table = await result.toArrow();
    expect(arrowRows(table.getChild('d'))).toEqual([null, [20n, 30n], [7n, 7n]]);
    expect(table.getChild('c')!.nullCount).toBe(1);
  });

  it('list literals: INTEGER[] and DECIMAL(2,1)[] (elements as DECIMAL cells read: exact text)', async () => {
    const ints = db().query('SELECT [1, 2, 3] AS l');
    expect(ints.columnTypes).toEqual(['INTEGER[]']);
    expect(ints.column('l')).toEqual([[1, 2, 3]]);
    expect(ints.toArray()).toEqual([{ l: [1, 2, 3] }]);
    const intsArrow = await ints.toArrow();
    expect(String(intsArrow.schema.fields[0]!.type)).toBe('List<Int32>');
    expect(arrowRows(intsArrow.getChild('l'))).toEqual([[1, 2, 3]]);

    const decimals = db().query('SELECT [1.5, 2.5] AS l');
    expect(decimals.columnTypes).toEqual(['DECIMAL(2,1)[]']);
    expect(decimals.column('l')).toEqual([['1.5', '2.5']]);
    expect(decimals.toArray()).toEqual([{ l: ['1.5', '2.5'] }]);
    const decimalsArrow = await decimals.toArrow();
    const child = (decimalsArrow.schema.fields[0]!.type as arrow.List).children[0]!.type as arrow.Decimal;
    expect([child.precision, child.scale, child.bitWidth]).toEqual([2, 1, 128]);
    expect(decimalsArrow.getChild('l')!.get(0)!.length).toBe(2);
  });

  it('comes through a Worker as it does here; the Worker refuses to register a list too', async () => {
    const worker = await LaneQL.createWorker({ flavour });
    try {
      const result = await worker.query('SELECT quantile_cont(x, [0.25, 0.5, 0.75]) AS q FROM range(1, 11) t(x)');
      expect(result.columnTypes).toEqual(['DOUBLE[]']);
      expect(result.toArray()).toEqual([{ q: [3.25, 5.5, 7.75] }]);
      const error = await rejectionOf(worker.register('has_list', { l: { type: 'BIGINT[]', values: [] } }));
      expect(error.message).toBe("column 'l' is a list: laneql tables cannot hold lists yet");
    } finally {
      await worker.close();
    }
  });

  it('refuses to register a list column: from Arrow, as a stated type, as a CSV column', async () => {
    const message = "column 'l' is a list: laneql tables cannot hold lists yet";
    const listType = new arrow.List(new arrow.Field('item', new arrow.Float64(), true));
    const input = new arrow.Table({
      id: arrow.vectorFromArray([1, 2], new arrow.Int32()),
      l: arrow.vectorFromArray([[1.5], [2.5, 3.5]], listType),
    });
    expect(catchLaneQLError(() => db().register('has_list', input)).message).toBe(message);
    expect(catchLaneQLError(() => db().register('has_list', { l: { type: 'DOUBLE[]', values: [] } })).message).toBe(message);
    expect(catchLaneQLError(() => db().registerCSV('has_list', 'l\n1\n', { columns: { l: 'BIGINT[]' } })).message).toBe(message);
    // Text and lists of lists are no list types at all.
    for (const type of ['VARCHAR[]', 'INTEGER[][]']) {
      expect(catchLaneQLError(() => db().register('has_list', { l: { type: type as 'DOUBLE[]', values: [] } })).message)
        .toBe(`column 'l': unknown type '${type}'`);
    }
    // What toArrow() makes of a list result does not go back in either.
    const result = await db().query('SELECT quantile_cont(x, [0.5]) AS l FROM range(3) t(x)').toArrow();
    expect(catchLaneQLError(() => db().register('has_list', result)).message).toBe(message);
    await expectUsable(db());
  });

});
