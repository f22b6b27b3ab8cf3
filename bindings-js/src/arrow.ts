// Apache Arrow in and out. apache-arrow is an optional peer dependency: tables coming in are read
// through the few structural fields every Arrow JS version has, and the library itself is only
// imported (dynamically) by toArrow().
import type { Table as ArrowTable } from 'apache-arrow';
import { getBit, newValidity, setBit } from './bits.js';
import { checkColumns, listColumnError, prepareColumn, type PreparedColumn } from './columns.js';
import { LaneQLError } from './errors.js';
import type { RawColumn } from './result-data.js';
import {
  decimalPrecision, decimalScale, decimalTypeId, isDecimalType, isListType, listElementType, TypeId, typeName, typeWidth,
} from './type-ids.js';
import type { CellValue } from './types.js';

// Arrow's Type enum values (apache-arrow/enum.d.ts) and units, as stored in its DataType objects.
const ArrowType = {
  Int: 2, Float: 3, Utf8: 5, Bool: 6, Decimal: 7, Date: 8, Timestamp: 10, Interval: 11, List: 12, FixedSizeList: 16,
  LargeUtf8: 20, LargeList: 21, Dictionary: -1,
};
const MONTH_DAY_NANO = 2;  // IntervalUnit

/** The parts of an Arrow DataType and Data chunk laneql reads. */
interface ArrowDataType {
  typeId: number;
  bitWidth?: number;
  isSigned?: boolean;
  precision?: number;
  scale?: number;
  unit?: number;
  toString(): string;
}
interface ArrowData {
  type: ArrowDataType;
  length: number;
  offset: number;
  nullCount: number;
  nullBitmap?: Uint8Array | null;
  values: ArrayLike<number | bigint> & ArrayBufferView;
  valueOffsets?: Int32Array | BigInt64Array;
}
interface ArrowVectorLike {
  data: readonly ArrowData[];
  length: number;
  get(index: number): unknown;
}
/** What register() recognises as an Arrow table: any apache-arrow Table (read through the
 *  fields above, which every Arrow JS version has; loosely typed so that every version fits). */
export interface ArrowTableLike {
  schema: { fields: readonly { name: string; type: unknown }[] };
  numRows: number;
  getChildAt(index: number): unknown;
}

export function isArrowTable(value: unknown): value is ArrowTableLike {
  const t = value as Partial<ArrowTableLike> | null;
  return typeof t === 'object' && t !== null && typeof t.getChildAt === 'function' && Array.isArray(t.schema?.fields);
}

/** laneql's type for an Arrow type whose values it can copy as they are; undefined otherwise. */
function directTypeId(type: ArrowDataType): number | undefined {
  switch (type.typeId) {
    case ArrowType.Int: {
      const ids: Record<number, [number, number]> = {
        8: [TypeId.Int8, TypeId.UInt8],
        16: [TypeId.Int16, TypeId.UInt16],
        32: [TypeId.Int32, TypeId.UInt32],
        64: [TypeId.Int64, TypeId.UInt64],
      };
      const pair = ids[type.bitWidth ?? 0];
      return pair === undefined ? undefined : type.isSigned ? pair[0] : pair[1];
    }
    case ArrowType.Float:
      return type.precision === 1 ? TypeId.Float32 : type.precision === 2 ? TypeId.Float64 : undefined;
    case ArrowType.Date:
      return type.unit === 0 ? TypeId.Date32 : undefined;
    case ArrowType.Timestamp:
      return type.unit === 0 ? TypeId.TimestampSeconds : type.unit === 2 ? TypeId.TimestampMicros : undefined;
    case ArrowType.Decimal: {
      // decimal128(38, 0) is how HUGEINT goes out (toArrow), so it comes back as one.
      const precision = type.precision ?? 0;
      const scale = type.scale ?? -1;
      if (type.bitWidth !== 128 || precision < 1 || precision > 38 || scale < 0 || scale > precision) return undefined;
      return scale === 0 && precision === 38 ? TypeId.Int128 : decimalTypeId(precision, scale);
    }
    case ArrowType.Bool:
      return TypeId.Bool;
    case ArrowType.Utf8:
    case ArrowType.LargeUtf8:
      return TypeId.String;
    default:
      return undefined;
  }
}

/** Copies the column's chunks, back to back, into laneql's layout. Arrow JS slices fixed-width
 *  values and string offsets along with a Data (so they start at the slice's first row), but
 *  not booleans' bits or the null bitmap, which are read from bit `offset` on. */
function copyChunks(name: string, typeId: number, chunks: readonly ArrowData[], length: number): PreparedColumn {
  const anyNulls = chunks.some((c) => c.nullCount > 0);
  const validity = anyNulls ? newValidity(length) : null;
  let row = 0;
  if (typeId === TypeId.String) {
    let bytes = 0;
    for (const c of chunks) {
      const o = c.valueOffsets!;
      bytes += Number(o[c.length]!) - Number(o[0]!);
    }
    if (bytes > 0x7fffffff) throw new LaneQLError(`column '${name}': more than 2 GiB of text`);
    const data = new Uint8Array(bytes);
    const offsets = new Int32Array(length + 1);
    let at = 0;
    for (const c of chunks) {
      const o = c.valueOffsets!;
      const start = Number(o[0]!);
      const end = Number(o[c.length]!);
      data.set(new Uint8Array(c.values.buffer, c.values.byteOffset + start, end - start), at);
      for (let i = 0; i < c.length; i++) {
        offsets[row + i + 1] = at + Number(o[i + 1]!) - start;
        if (validity && (!c.nullBitmap || c.nullCount === 0 || getBit(c.nullBitmap, c.offset + i))) {
          setBit(validity, row + i);
        }
      }
      at += end - start;
      row += c.length;
    }
    return { name, typeId, length, data, offsets, validity };
  }
  const width = typeWidth(typeId);
  const data = new Uint8Array(length * width);
  for (const c of chunks) {
    if (typeId === TypeId.Bool) {
      // Arrow packs booleans in bits; laneql keeps one byte per value.
      const bits = new Uint8Array(c.values.buffer, c.values.byteOffset, c.values.byteLength);
      for (let i = 0; i < c.length; i++) data[row + i] = getBit(bits, c.offset + i) ? 1 : 0;
    } else {
      data.set(new Uint8Array(c.values.buffer, c.values.byteOffset, c.length * width), row * width);
    }
    if (validity) {
      for (let i = 0; i < c.length; i++) {
        if (!c.nullBitmap || c.nullCount === 0 || getBit(c.nullBitmap, c.offset + i)) {
          setBit(validity, row + i);
        } else {
          data.fill(0, (row + i) * width, (row + i + 1) * width); // laneql keeps 0 under a NULL
        }
      }
    }
    row += c.length;
  }
  return { name, typeId, length, data, offsets: null, validity };
}

/** An Arrow table's columns in laneql's layout. Dictionary-encoded, millisecond and nanosecond
 *  columns are converted value by value; types laneql has no counterpart for are refused. */
export function prepareArrowTable(table: ArrowTableLike): PreparedColumn[] {
  const columns = table.schema.fields.map((field, i) => {
    const vector = table.getChildAt(i) as ArrowVectorLike | null;
    if (vector === null) throw new LaneQLError(`column '${field.name}': missing in the Arrow table`);
    const type = field.type as ArrowDataType;
    const typeId = directTypeId(type);
    if (typeId !== undefined) return copyChunks(field.name, typeId, vector.data, vector.length);
    // The type first: a column of a type laneql cannot hold is refused before its values are read.
    const converted = convertedType(field.name, type);
    const values: CellValue[] = [];
    for (let row = 0; row < vector.length; row++) values.push(arrowValue(field.name, type, vector.get(row)));
    return prepareColumn(field.name, { type: converted, values });
  });
  checkColumns(columns);
  return columns;
}

function convertedType(name: string, type: ArrowDataType): 'VARCHAR' | 'TIMESTAMP' | 'INTERVAL' {
  if (type.typeId === ArrowType.Dictionary && /Utf8/.test(type.toString())) return 'VARCHAR';
  if (type.typeId === ArrowType.Interval && type.unit === MONTH_DAY_NANO) return 'INTERVAL';
  if (type.typeId === ArrowType.Date || type.typeId === ArrowType.Timestamp) return 'TIMESTAMP';
  if (type.typeId === ArrowType.List || type.typeId === ArrowType.LargeList || type.typeId === ArrowType.FixedSizeList) {
    throw listColumnError(name);
  }
  throw new LaneQLError(`column '${name}': Arrow type ${type.toString()} is not supported`);
}

function arrowValue(name: string, type: ArrowDataType, value: unknown): CellValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  // Date (milliseconds) is a number of milliseconds; timestamps in ms / ns come as numbers / bigints.
  if (type.typeId === ArrowType.Date) return new Date(Number(value));
  if (type.typeId === ArrowType.Interval) {
    // month_day_nano: int32 months, int32 days, int64 nanoseconds (cut to microseconds).
    const v = value as Int32Array;
    const nanos = BigInt.asIntN(64, (BigInt(v[3]!) << 32n) | BigInt(v[2]! >>> 0));
    return { months: v[0]!, days: v[1]!, micros: nanos / 1000n };
  }
  if (type.typeId === ArrowType.Timestamp) {
    const micros = type.unit === 1 ? BigInt(Math.round(Number(value))) * 1000n : BigInt(value as bigint) / 1000n;
    return micros;
  }
  throw new LaneQLError(`column '${name}': cannot read Arrow value ${String(value)}`);
}

/** A result as an apache-arrow Table (the library is imported on first use). */
export async function toArrowTable(numRows: number, columns: readonly RawColumn[]): Promise<ArrowTable> {
  let arrow: typeof import('apache-arrow');
  try {
    arrow = await import('apache-arrow');
  } catch (cause) {
    throw new LaneQLError('toArrow() needs the apache-arrow package: npm install apache-arrow', { cause });
  }
  const vectors: Record<string, import('apache-arrow').Vector> = {};
  for (const column of columns) {
    const nullBitmap = column.validity === null ? undefined : new Uint8Array(column.validity);
    const nullCount = nullBitmap === undefined ? 0 : countNulls(nullBitmap, numRows);
    const common = { length: numRows, nullCount, nullBitmap };
    vectors[column.name] = arrow.makeVector(columnData(arrow, column, common));
  }
  return new arrow.Table(vectors);
}

type ArrowModule = typeof import('apache-arrow');
type Data = import('apache-arrow').Data;
interface Common { length: number; nullCount: number; nullBitmap: Uint8Array | undefined }

function columnData(arrow: ArrowModule, column: RawColumn, common: Common): Data {
  const values = column.values;
  switch (column.typeId) {
    case TypeId.String:
      return arrow.makeData({ type: new arrow.Utf8(), ...common, data: new Uint8Array(values), valueOffsets: new Int32Array(column.offsets!) });
    case TypeId.LargeString:
      return arrow.makeData({ type: new arrow.LargeUtf8(), ...common, data: new Uint8Array(values), valueOffsets: new BigInt64Array(column.offsets!) });
    default:
      return isListType(column.typeId) ? listData(arrow, column, common) : fixedData(arrow, column.typeId, values, common);
  }
}

// Arrow's List: element offsets (laneql's are in bytes) over a child array that holds all rows'
// elements, converted as a column of the element type is (laneql's elements are never NULL).
function listData(arrow: ArrowModule, column: RawColumn, common: Common): Data {
  const elementType = listElementType(column.typeId);
  const width = typeWidth(elementType);
  const byteOffsets = new Int32Array(column.offsets!);
  const valueOffsets = byteOffsets.map((bytes) => bytes / width);
  const count = common.length === 0 ? 0 : valueOffsets[common.length]!;
  const child = fixedData(arrow, elementType, column.values, { length: count, nullCount: 0, nullBitmap: undefined });
  // 'item', nullable: the child field Arrow's own list(type) makes, as other Arrow readers expect.
  const type = new arrow.List(new arrow.Field('item', child.type, true));
  return arrow.makeData({ type, ...common, valueOffsets, child });
}

// A fixed-width column (or a list's elements) as Arrow data. Most types are the same bytes in
// both; BOOLEAN and INTERVAL are converted (see kernel/include/laneql/types.h).
function fixedData(arrow: ArrowModule, typeId: number, values: ArrayBuffer, common: Common): Data {
  const n = common.length;
  if (isDecimalType(typeId)) {  // Arrow's decimal128 holds the same 16 bytes
    const type = new arrow.Decimal(decimalScale(typeId), decimalPrecision(typeId), 128);
    return arrow.makeData({ type, ...common, data: new Uint32Array(values, 0, n * 4) });
  }
  switch (typeId) {
    case TypeId.Bool: {
      const bytes = new Uint8Array(values);
      const bits = new Uint8Array(Math.ceil(n / 8));
      for (let i = 0; i < n; i++) if (bytes[i]) setBit(bits, i);
      return arrow.makeData({ type: new arrow.Bool(), ...common, data: bits });
    }
    case TypeId.Int128:
      return arrow.makeData({ type: new arrow.Decimal(0, 38, 128), ...common, data: new Uint32Array(values, 0, n * 4) });
    case TypeId.Interval:
      return arrow.makeData({ type: new arrow.IntervalMonthDayNano(), ...common, data: monthDayNano(values, n) });
    default:
      return makeFixed(arrow, typeId, values, common);
  }
}

// The kernel's INTERVALs (months · 2^96 + days · 2^64 + micros, kernel/include/laneql/interval.h)
// as Arrow's month_day_nano: per value int32 months, int32 days, int64 nanoseconds.
function monthDayNano(values: ArrayBuffer, n: number): Int32Array {
  const words = new BigUint64Array(values, 0, n * 2);
  const out = new Int32Array(n * 4);
  for (let i = 0; i < n; i++) {
    const packed = (BigInt.asIntN(64, words[2 * i + 1]!) << 64n) | words[2 * i]!;
    const micros = BigInt.asIntN(64, words[2 * i]!);
    const rest = (packed - micros) >> 64n;
    const days = BigInt.asIntN(32, rest);
    const nanos = BigInt.asUintN(64, micros * 1000n);
    out[4 * i] = Number((rest - days) >> 32n);
    out[4 * i + 1] = Number(days);
    out[4 * i + 2] = Number(BigInt.asIntN(32, nanos));
    out[4 * i + 3] = Number(BigInt.asIntN(32, nanos >> 32n));
  }
  return out;
}

// The Arrow type and typed array of each fixed-width laneql type (the values are the same bytes).
function fixedArrowType(arrow: ArrowModule, typeId: number): [import('apache-arrow').DataType, TypedArrayOf] | undefined {
  switch (typeId) {
    case TypeId.Int8: return [new arrow.Int8(), Int8Array];
    case TypeId.Int16: return [new arrow.Int16(), Int16Array];
    case TypeId.Int32: return [new arrow.Int32(), Int32Array];
    case TypeId.Int64: return [new arrow.Int64(), BigInt64Array];
    case TypeId.UInt8: return [new arrow.Uint8(), Uint8Array];
    case TypeId.UInt16: return [new arrow.Uint16(), Uint16Array];
    case TypeId.UInt32: return [new arrow.Uint32(), Uint32Array];
    case TypeId.UInt64: return [new arrow.Uint64(), BigUint64Array];
    case TypeId.Float32: return [new arrow.Float32(), Float32Array];
    case TypeId.Float64: return [new arrow.Float64(), Float64Array];
    case TypeId.Date32: return [new arrow.DateDay(), Int32Array];
    case TypeId.TimestampSeconds: return [new arrow.TimestampSecond(), BigInt64Array];
    case TypeId.TimestampMicros: return [new arrow.TimestampMicrosecond(), BigInt64Array];
    case TypeId.Time: return [new arrow.TimeMicrosecond(), BigInt64Array];
    default: return undefined;
  }
}

type TypedArrayOf = new (buffer: ArrayBuffer, byteOffset: number, length: number) => ArrayBufferView;

function makeFixed(arrow: ArrowModule, typeId: number, values: ArrayBuffer, common: Common): Data {
  const fixed = fixedArrowType(arrow, typeId);
  if (fixed === undefined) throw new LaneQLError(`toArrow: no Arrow type for ${typeName(typeId)}`);
  const [type, Values] = fixed;
  // makeData has one overload per Arrow type; fixedArrowType keeps the type and the array paired.
  return arrow.makeData({ type, ...common, data: new Values(values, 0, common.length) } as never);
}

function countNulls(bits: Uint8Array, n: number): number {
  let nulls = 0;
  for (let i = 0; i < n; i++) if (!getBit(bits, i)) nulls++;
  return nulls;
}
