// register()'s input (plain objects of typed arrays or arrays) -> columns in laneql's physical
// layout, ready to be copied into wasm memory in one pass per buffer (bindings.ts).
import { clearBit, getBit, newValidity, setBit } from './bits.js';
import { LaneQLError } from './errors.js';
import { isListType, isStringType, TypeId, typeIdOf, typeName, typeWidth } from './type-ids.js';
import { specialValue } from './column-values.js';
import type { CellValue, ColumnInput, ColumnsInput, NumericArray, TypedColumn } from './types.js';

/**
 * One column in laneql's layout (kernel/include/laneql/column.h): `data` holds the values
 * (typeWidth bytes each) or the UTF-8 bytes of a string column, `offsets` the string offsets
 * (rows + 1), `validity` a bitmask (bit set = not NULL, LSB first, the bytes of 64-bit words) or
 * null for no NULLs. Plain data: it can be posted to a Worker.
 */
export interface PreparedColumn {
  name: string;
  typeId: number;
  length: number;
  data: Uint8Array;
  offsets: Int32Array | null;
  validity: Uint8Array | null;
}

const TYPED_ARRAY_TYPES: readonly [abstract new (...args: never[]) => NumericArray, number][] = [
  [Int8Array, TypeId.Int8],
  [Int16Array, TypeId.Int16],
  [Int32Array, TypeId.Int32],
  [BigInt64Array, TypeId.Int64],
  [Uint8Array, TypeId.UInt8],
  [Uint16Array, TypeId.UInt16],
  [Uint32Array, TypeId.UInt32],
  [BigUint64Array, TypeId.UInt64],
  [Float32Array, TypeId.Float32],
  [Float64Array, TypeId.Float64],
];

function typedArrayTypeId(values: unknown): number | undefined {
  for (const [ctor, id] of TYPED_ARRAY_TYPES) if (values instanceof ctor) return id;
  return undefined;
}

function bytesOf(values: ArrayBufferView): Uint8Array {
  return new Uint8Array(values.buffer, values.byteOffset, values.byteLength);
}

/** The type a plain array's values imply (see ColumnInput in types.ts). */
function inferPlainType(name: string, values: readonly CellValue[]): number {
  let kind: string | undefined;
  let allSafeIntegers = true;
  for (const v of values) {
    if (v === null || v === undefined) continue;
    const k = v instanceof Date ? 'date' : typeof v;
    if (kind === undefined) kind = k;
    else if (k !== kind) {
      throw new LaneQLError(`column '${name}': mixes ${kind} and ${k} values; state its type with { type, values }`);
    }
    if (k === 'number' && !Number.isSafeInteger(v)) allSafeIntegers = false;
  }
  switch (kind) {
    case undefined:
    case 'string':
      return TypeId.String;
    case 'number':
      return allSafeIntegers ? TypeId.Int64 : TypeId.Float64;
    case 'bigint':
      return TypeId.Int64;
    case 'boolean':
      return TypeId.Bool;
    case 'date':
      return TypeId.TimestampMicros;
    default:
      throw new LaneQLError(`column '${name}': values of kind ${kind} are not supported`);
  }
}

const INTEGER_RANGES: Record<number, [bigint, bigint]> = {
  [TypeId.Int8]: [-(2n ** 7n), 2n ** 7n - 1n],
  [TypeId.Int16]: [-(2n ** 15n), 2n ** 15n - 1n],
  [TypeId.Int32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [TypeId.Int64]: [-(2n ** 63n), 2n ** 63n - 1n],
  [TypeId.UInt8]: [0n, 2n ** 8n - 1n],
  [TypeId.UInt16]: [0n, 2n ** 16n - 1n],
  [TypeId.UInt32]: [0n, 2n ** 32n - 1n],
  [TypeId.UInt64]: [0n, 2n ** 64n - 1n],
  [TypeId.Int128]: [-(2n ** 127n), 2n ** 127n - 1n],
  [TypeId.Date32]: [-(2n ** 31n), 2n ** 31n - 1n],
  [TypeId.TimestampSeconds]: [-(2n ** 63n), 2n ** 63n - 1n],
  [TypeId.TimestampMicros]: [-(2n ** 63n), 2n ** 63n - 1n],
};

const MS_PER_DAY = 86_400_000;
// 'YYYY-MM-DD', optionally ' HH:MM:SS[.ffffff]' or with 'T', optionally 'Z': read as UTC.
const ISO_TIME = /^(-?\d{4,})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?)?Z?$/;

function isoToMicros(text: string): bigint | undefined {
  const m = ISO_TIME.exec(text);
  if (m === null) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = ''] = m;
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s), 0);
  const ms = date.getTime();
  if (Number.isNaN(ms)) return undefined;
  return BigInt(ms) * 1000n + BigInt(frac.padEnd(6, '0'));
}

/** A plain array value as an integer of the column's type (Dates and ISO text for times). */
function toInteger(typeId: number, value: CellValue): bigint | undefined {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : undefined;
  if (typeof value === 'boolean') return undefined;
  const micros =
    value instanceof Date
      ? Number.isNaN(value.getTime())
        ? undefined
        : BigInt(value.getTime()) * 1000n
      : typeof value === 'string'
        ? isoToMicros(value)
        : undefined;
  if (micros === undefined) return undefined;
  if (typeId === TypeId.TimestampMicros) return micros;
  if (typeId === TypeId.TimestampSeconds) return micros / 1_000_000n;
  if (typeId === TypeId.Date32) {
    const days = micros / BigInt(MS_PER_DAY * 1000);
    return micros < 0n && micros % BigInt(MS_PER_DAY * 1000) !== 0n ? days - 1n : days;
  }
  return undefined;
}

function describe(value: CellValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'an invalid Date' : value.toISOString();
  return String(value);
}

/** A plain array (null = NULL) converted to the column's physical values. */
function preparePlain(name: string, typeId: number, values: readonly CellValue[]): PreparedColumn {
  const length = values.length;
  let validity: Uint8Array | null = null;
  const isNull = (row: number, v: CellValue): boolean => {
    if (v !== null && v !== undefined) return false;
    validity ??= newValidity(length).fill(0xff);
    clearBit(validity, row);
    return true;
  };
  const bad = (row: number, v: CellValue): LaneQLError =>
    new LaneQLError(`column '${name}' row ${row}: ${describe(v)} is not a ${typeName(typeId)} value`);

  if (isStringType(typeId)) {
    const encoder = new TextEncoder();
    const parts: Uint8Array[] = [];
    const offsets = new Int32Array(length + 1);
    let bytes = 0;
    values.forEach((v, row) => {
      if (!isNull(row, v)) {
        if (typeof v !== 'string') throw bad(row, v);
        const encoded = encoder.encode(v);
        parts.push(encoded);
        bytes += encoded.length;
        if (bytes > 0x7fffffff) throw new LaneQLError(`column '${name}': more than 2 GiB of text`);
      }
      offsets[row + 1] = bytes;
    });
    const data = new Uint8Array(bytes);
    let at = 0;
    for (const part of parts) {
      data.set(part, at);
      at += part.length;
    }
    return { name, typeId, length, data, offsets, validity: finish(validity, length) };
  }

  const width = typeWidth(typeId);
  const data = new Uint8Array(length * width);
  const view = new DataView(data.buffer);
  values.forEach((v, row) => {
    if (isNull(row, v)) return;
    const at = row * width;
    if (typeId === TypeId.Float32 || typeId === TypeId.Float64) {
      if (typeof v !== 'number') throw bad(row, v);
      if (typeId === TypeId.Float32) view.setFloat32(at, v, true);
      else view.setFloat64(at, v, true);
      return;
    }
    if (typeId === TypeId.Bool) {
      if (typeof v !== 'boolean' && v !== 0 && v !== 1) throw bad(row, v);
      view.setUint8(at, v === true || v === 1 ? 1 : 0);
      return;
    }
    const special = specialValue(typeId, v);
    if (special !== null) {  // DECIMAL, TIME, INTERVAL: their own forms (column-values.ts)
      if (special === undefined) throw bad(row, v);
      writeInteger(view, at, width, special);
      return;
    }
    const n = toInteger(typeId, v);
    const range = INTEGER_RANGES[typeId];
    if (n === undefined || range === undefined || n < range[0] || n > range[1]) throw bad(row, v);
    writeInteger(view, at, width, n);
  });
  return { name, typeId, length, data, offsets: null, validity: finish(validity, length) };
}

function writeInteger(view: DataView, at: number, width: number, n: bigint): void {
  switch (width) {
    case 1: view.setUint8(at, Number(BigInt.asUintN(8, n))); break;
    case 2: view.setUint16(at, Number(BigInt.asUintN(16, n)), true); break;
    case 4: view.setUint32(at, Number(BigInt.asUintN(32, n)), true); break;
    case 8: view.setBigUint64(at, BigInt.asUintN(64, n), true); break;
    default:
      view.setBigUint64(at, BigInt.asUintN(64, n), true);
      view.setBigUint64(at + 8, BigInt.asUintN(64, n >> 64n), true);
  }
}

/** The bits past the last row must be 0 (the kernel's bitmask convention). */
function finish(validity: Uint8Array | null, length: number): Uint8Array | null {
  if (validity === null) return null;
  for (let bit = length; bit < validity.length * 8; bit++) clearBit(validity, bit);
  return validity;
}

function validityFromMask(name: string, valid: Uint8Array | readonly boolean[], length: number): Uint8Array | null {
  if (valid.length !== length) {
    throw new LaneQLError(`column '${name}': valid has ${valid.length} entries for ${length} values`);
  }
  let anyNull = false;
  const validity = newValidity(length);
  for (let row = 0; row < length; row++) {
    if (valid[row]) setBit(validity, row);
    else anyNull = true;
  }
  return anyNull ? validity : null;
}

/** Zeroes the values under NULLs (the column model keeps 0 there: a NULL reads as 0). */
function zeroNulls(data: Uint8Array, width: number, validity: Uint8Array): Uint8Array {
  const rows = data.length / width;
  for (let row = 0; row < rows; row++) {
    if (!getBit(validity, row)) data.fill(0, row * width, (row + 1) * width);
  }
  return data;
}

function isTypedColumn(input: ColumnInput): input is TypedColumn {
  return typeof input === 'object' && input !== null && !Array.isArray(input) && !ArrayBuffer.isView(input) && 'type' in input;
}

/** Why a list column cannot be registered: query results hold lists, tables do not (yet). */
export function listColumnError(name: string): LaneQLError {
  return new LaneQLError(`column '${name}' is a list: laneql tables cannot hold lists yet`);
}

/** One register() column, type inferred or stated (see ColumnInput). */
export function prepareColumn(name: string, input: ColumnInput): PreparedColumn {
  if (isTypedColumn(input)) {
    const typeId = typeIdOf(String(input.type));
    if (typeId === undefined) throw new LaneQLError(`column '${name}': unknown type '${String(input.type)}'`);
    if (isListType(typeId)) throw listColumnError(name);
    const { values } = input;
    if (ArrayBuffer.isView(values)) {
      const width = typeWidth(typeId);
      if (width === 0 || values.BYTES_PER_ELEMENT !== width || typeId === TypeId.Int128) {
        throw new LaneQLError(
          `column '${name}': a ${values.constructor.name} cannot hold ${input.type} values; pass a plain array`,
        );
      }
      const validity = input.valid === undefined ? null : validityFromMask(name, input.valid, values.length);
      const data = validity === null ? bytesOf(values) : zeroNulls(bytesOf(values).slice(), width, validity);
      return { name, typeId, length: values.length, data, offsets: null, validity };
    }
    if (!Array.isArray(values)) throw new LaneQLError(`column '${name}': values must be a typed array or an array`);
    const prepared = preparePlain(name, typeId, values);
    if (input.valid !== undefined) {
      const mask = validityFromMask(name, input.valid, values.length);
      if (mask !== null) {
        if (prepared.validity === null) prepared.validity = mask;
        else for (let i = 0; i < mask.length; i++) prepared.validity[i]! &= mask[i]!;
        if (!isStringType(typeId)) zeroNulls(prepared.data, typeWidth(typeId), prepared.validity);
      }
    }
    return prepared;
  }
  const typedId = typedArrayTypeId(input);
  if (typedId !== undefined) {
    const values = input as NumericArray;
    return { name, typeId: typedId, length: values.length, data: bytesOf(values), offsets: null, validity: null };
  }
  if (Array.isArray(input)) return preparePlain(name, inferPlainType(name, input), input);
  throw new LaneQLError(
    `column '${name}': expected a typed array, an array or { type, values }, got ${describe(input as unknown as CellValue)}`,
  );
}

/** register()'s plain-object input: every column prepared, all of one length. */
export function prepareColumns(table: ColumnsInput): PreparedColumn[] {
  if (typeof table !== 'object' || table === null) throw new LaneQLError('register: the table must be an object of columns');
  const columns = Object.entries(table).map(([name, input]) => prepareColumn(name, input));
  checkColumns(columns);
  return columns;
}

export function checkColumns(columns: readonly PreparedColumn[]): void {
  if (columns.length === 0) throw new LaneQLError('register: a table needs at least one column');
  const first = columns[0]!;
  const seen = new Set<string>();
  for (const column of columns) {
    if (column.name === '') throw new LaneQLError('register: a column needs a name');
    const folded = column.name.toLowerCase();
    if (seen.has(folded)) throw new LaneQLError(`register: two columns are named '${column.name}'`);
    seen.add(folded);
    if (column.length !== first.length) {
      throw new LaneQLError(
        `register: column '${column.name}' has ${column.length} rows, but '${first.name}' has ${first.length}`,
      );
    }
  }
}
