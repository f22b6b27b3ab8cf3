// A query result as JavaScript holds it: each column's buffers, copied out of wasm memory once
// (bindings.ts), read lazily into typed arrays, strings and row objects.
import type { Table as ArrowTable } from 'apache-arrow';
import { toArrowTable } from './arrow.js';
import { getBit } from './bits.js';
import { LaneQLError } from './errors.js';
import { decimalScale, isDecimalType, isListType, isStringType, listElementType, TypeId, typeName, typeWidth } from './type-ids.js';
import type { CellValue, ColumnType, ColumnValues, IntervalValue, ListValue, ProfileTrace, Row } from './types.js';

/** One result column's buffers in laneql's layout (see PreparedColumn). Plain data: a Worker
 *  can post it (its ArrayBuffers transferred). */
export interface RawColumn {
  name: string;
  typeId: number;
  values: ArrayBuffer;
  offsets: ArrayBuffer | null;
  validity: ArrayBuffer | null;
}

export interface RawResult {
  numRows: number;
  columns: RawColumn[];
  /** Milliseconds inside the engine (parse to result, in wasm memory). */
  elapsedMs: number;
  /** The trace-event JSON text when the query was profiled, else null. */
  profile: string | null;
}

const MS_PER_DAY = 86_400_000;

export class QueryResult {
  readonly numRows: number;
  readonly columnNames: string[];
  readonly columnTypes: ColumnType[];
  /** Milliseconds the query took inside the engine: parse to result in wasm memory (not the
   *  copy out of it, nor a Worker's messages). */
  readonly elapsedMs: number;
  readonly #raw: RawResult;
  readonly #decoded = new Map<number, ColumnValues>();
  #profile: ProfileTrace | null | undefined;

  constructor(raw: RawResult) {
    this.#raw = raw;
    this.elapsedMs = raw.elapsedMs;
    this.numRows = raw.numRows;
    this.columnNames = raw.columns.map((c) => c.name);
    this.columnTypes = raw.columns.map((c) => typeName(c.typeId));
  }

  /** The query's timeline when it ran with { profile: true } (parsed on first use), else null. */
  get profile(): ProfileTrace | null {
    if (this.#profile === undefined) {
      this.#profile = this.#raw.profile ? (JSON.parse(this.#raw.profile) as ProfileTrace) : null;
    }
    return this.#profile;
  }

  /** @internal The buffers, for posting the result from a Worker. */
  get raw(): RawResult {
    return this.#raw;
  }

  #index(column: string | number): number {
    if (typeof column === 'number') {
      if (Number.isInteger(column) && column >= 0 && column < this.#raw.columns.length) return column;
      throw new LaneQLError(`no column ${column}: the result has ${this.#raw.columns.length}`);
    }
    const i = this.columnNames.indexOf(column);
    if (i >= 0) return i;
    const folded = column.toLowerCase();
    const j = this.columnNames.findIndex((n) => n.toLowerCase() === folded);
    if (j >= 0) return j;
    throw new LaneQLError(`no column '${column}' in the result (${this.columnNames.join(', ')})`);
  }

  /** A column's values (see ColumnValues in types.ts); NULL reads as 0 in typed arrays. */
  column(column: string | number): ColumnValues {
    const i = this.#index(column);
    let values = this.#decoded.get(i);
    if (values === undefined) {
      values = decodeColumn(this.#raw.columns[i]!, this.numRows);
      this.#decoded.set(i, values);
    }
    return values;
  }

  isNull(column: string | number, row: number): boolean {
    const validity = this.#raw.columns[this.#index(column)]!.validity;
    if (!Number.isInteger(row) || row < 0 || row >= this.numRows) {
      throw new LaneQLError(`no row ${row}: the result has ${this.numRows}`);
    }
    return validity !== null && !getBit(new Uint8Array(validity), row);
  }

  /** One byte per row, 1 where the value is NULL; null when the column has no NULLs. */
  nullMask(column: string | number): Uint8Array | null {
    const validity = this.#raw.columns[this.#index(column)]!.validity;
    if (validity === null) return null;
    const bits = new Uint8Array(validity);
    const mask = new Uint8Array(this.numRows);
    for (let row = 0; row < this.numRows; row++) mask[row] = getBit(bits, row) ? 0 : 1;
    return mask;
  }

  /** Rows as objects keyed by column name (see Row in types.ts for the value kinds). */
  toArray(): Row[] {
    const columns = this.#raw.columns.map((c, i) => ({
      name: c.name,
      typeId: c.typeId,
      values: this.column(i),
      nulls: this.nullMask(i),
    }));
    const rows: Row[] = [];
    for (let row = 0; row < this.numRows; row++) {
      const out: Row = {};
      for (const c of columns) out[c.name] = c.nulls?.[row] ? null : cellValue(c.typeId, c.values, row);
      rows.push(out);
    }
    return rows;
  }

  /** The result as an apache-arrow Table (an optional peer dependency, imported on first use). */
  toArrow(): Promise<ArrowTable> {
    return toArrowTable(this.numRows, this.#raw.columns);
  }
}

// A value of a row object: column()'s value made friendlier where a typed array holds a raw
// number (BOOLEAN, DATE, TIMESTAMP); a list's rows are already arrays of such values.
function cellValue(typeId: number, values: ColumnValues, row: number): CellValue | ListValue {
  const v = values[row]!;
  switch (typeId) {
    case TypeId.Bool:
      return v === 1;
    case TypeId.Date32:
      return new Date(Number(v) * MS_PER_DAY);
    case TypeId.TimestampMicros:
      return new Date(Number((v as bigint) / 1000n) - ((v as bigint) % 1000n < 0n ? 1 : 0));
    case TypeId.TimestampSeconds:
      return new Date(Number(v as bigint) * 1000);
    default:
      return v;
  }
}

const decoder = new TextDecoder();

function decodeColumn(column: RawColumn, n: number): ColumnValues {
  const v = column.values;
  if (isListType(column.typeId)) return decodeLists(column, n);
  if (isDecimalType(column.typeId)) return decodeDecimals(column, n);
  switch (column.typeId) {
    case TypeId.Int8: return new Int8Array(v, 0, n);
    case TypeId.Int16: return new Int16Array(v, 0, n);
    case TypeId.Int32: return new Int32Array(v, 0, n);
    case TypeId.Int64: return new BigInt64Array(v, 0, n);
    case TypeId.UInt8: return new Uint8Array(v, 0, n);
    case TypeId.UInt16: return new Uint16Array(v, 0, n);
    case TypeId.UInt32: return new Uint32Array(v, 0, n);
    case TypeId.UInt64: return new BigUint64Array(v, 0, n);
    case TypeId.Float32: return new Float32Array(v, 0, n);
    case TypeId.Float64: return new Float64Array(v, 0, n);
    case TypeId.Date32: return new Int32Array(v, 0, n);
    case TypeId.TimestampSeconds:
    case TypeId.TimestampMicros: return new BigInt64Array(v, 0, n);
    case TypeId.Bool: return new Uint8Array(v, 0, n);
    case TypeId.Time: return new BigInt64Array(v, 0, n);
    case TypeId.Interval: return decodeIntervals(v, n);
    case TypeId.Int128: {
      const words = new BigUint64Array(v, 0, n * 2);
      const out: bigint[] = new Array<bigint>(n);
      for (let i = 0; i < n; i++) out[i] = (BigInt.asIntN(64, words[2 * i + 1]!) << 64n) | words[2 * i]!;
      return out;
    }
    default:
      if (isStringType(column.typeId)) return decodeStrings(column, n);
      throw new LaneQLError(`cannot read a result column of type id ${column.typeId}`);
  }
}

// The kernel's INTERVAL: the int128 months · 2^96 + days · 2^64 + microseconds, each part signed
// (kernel/include/laneql/interval.h).
function decodeIntervals(v: ArrayBuffer, n: number): IntervalValue[] {
  const words = new BigUint64Array(v, 0, n * 2);
  const out: IntervalValue[] = new Array<IntervalValue>(n);
  for (let i = 0; i < n; i++) {
    const packed = (BigInt.asIntN(64, words[2 * i + 1]!) << 64n) | words[2 * i]!;
    const micros = BigInt.asIntN(64, words[2 * i]!);
    const rest = (packed - micros) >> 64n;
    const days = BigInt.asIntN(32, rest);
    out[i] = { months: Number((rest - days) >> 32n), days: Number(days), micros };
  }
  return out;
}

// DECIMAL(p, s): the int128 value · 10^s of each row as its exact text ('-0.05'), NULL as null.
function decodeDecimals(column: RawColumn, n: number): (string | null)[] {
  const words = new BigUint64Array(column.values, 0, n * 2);
  const validity = column.validity === null ? null : new Uint8Array(column.validity);
  const scale = decimalScale(column.typeId);
  const out: (string | null)[] = new Array<string | null>(n);
  for (let i = 0; i < n; i++) {
    if (validity !== null && !getBit(validity, i)) {
      out[i] = null;
      continue;
    }
    const v = (BigInt.asIntN(64, words[2 * i + 1]!) << 64n) | words[2 * i]!;
    const digits = (v < 0n ? -v : v).toString().padStart(scale + 1, '0');
    const whole = digits.slice(0, digits.length - scale);
    out[i] = (v < 0n ? '-' : '') + (scale === 0 ? whole : `${whole}.${digits.slice(digits.length - scale)}`);
  }
  return out;
}

// A list column: all rows' elements decoded at once as a column of the element type (they are
// packed in its layout, never NULL), then cut at each row's byte offsets into an array of the
// values a row object holds for that type.
function decodeLists(column: RawColumn, n: number): (ListValue | null)[] {
  const elementType = listElementType(column.typeId);
  const width = typeWidth(elementType);
  const offsets = new Int32Array(column.offsets!);
  const count = n === 0 ? 0 : offsets[n]! / width;
  const elements = decodeColumn({ ...column, typeId: elementType, offsets: null, validity: null }, count);
  const validity = column.validity === null ? null : new Uint8Array(column.validity);
  const out: (ListValue | null)[] = new Array<ListValue | null>(n);
  for (let row = 0; row < n; row++) {
    if (validity !== null && !getBit(validity, row)) {
      out[row] = null;
      continue;
    }
    const list: ListValue = [];
    for (let k = offsets[row]! / width, end = offsets[row + 1]! / width; k < end; k++) {
      list.push(cellValue(elementType, elements, k) as ListValue[number]);
    }
    out[row] = list;
  }
  return out;
}

function decodeStrings(column: RawColumn, n: number): (string | null)[] {
  const bytes = new Uint8Array(column.values);
  const offsets = column.typeId === TypeId.String ? new Int32Array(column.offsets!) : new BigInt64Array(column.offsets!);
  const validity = column.validity === null ? null : new Uint8Array(column.validity);
  const out: (string | null)[] = new Array<string | null>(n);
  for (let row = 0; row < n; row++) {
    if (validity !== null && !getBit(validity, row)) {
      out[row] = null;
      continue;
    }
    const start = Number(offsets[row]!);
    const end = Number(offsets[row + 1]!);
    out[row] = start === end ? '' : decoder.decode(bytes.subarray(start, end));
  }
  return out;
}
