// laneql's column type ids (kernel/include/laneql/types.h, enum TypeId) and their DuckDB names.
import type { ColumnType, ElementType } from './types.js';

/** The kernel's TypeId values, in its enum order. */
export const TypeId = {
  Int8: 0,
  Int16: 1,
  Int32: 2,
  Int64: 3,
  UInt8: 4,
  UInt16: 5,
  UInt32: 6,
  UInt64: 7,
  Float32: 8,
  Float64: 9,
  Date32: 10,
  TimestampSeconds: 11,
  TimestampMicros: 12,
  String: 13,
  LargeString: 14,
  Int128: 15,
  Bool: 16,
  Time: 17,
  Interval: 18,
} as const;

/** By type id: the DuckDB name and the bytes per value (0 for strings). */
const TYPES: readonly { name: ColumnType; width: number }[] = [
  { name: 'TINYINT', width: 1 },
  { name: 'SMALLINT', width: 2 },
  { name: 'INTEGER', width: 4 },
  { name: 'BIGINT', width: 8 },
  { name: 'UTINYINT', width: 1 },
  { name: 'USMALLINT', width: 2 },
  { name: 'UINTEGER', width: 4 },
  { name: 'UBIGINT', width: 8 },
  { name: 'FLOAT', width: 4 },
  { name: 'DOUBLE', width: 8 },
  { name: 'DATE', width: 4 },
  { name: 'TIMESTAMP_S', width: 8 },
  { name: 'TIMESTAMP', width: 8 },
  { name: 'VARCHAR', width: 0 },
  { name: 'VARCHAR', width: 0 },
  { name: 'HUGEINT', width: 16 },
  { name: 'BOOLEAN', width: 1 },
  { name: 'TIME', width: 8 },
  { name: 'INTERVAL', width: 16 },
];

/** DECIMAL(p, s) has the id 0x4000 | p << 8 | s (kDecimalTag in types.h), not one of the above. */
const DECIMAL_TAG = 0x4000;
/** A list of a fixed-width element type has the id 0x8000 | element (kListTag in types.h). */
const LIST_TAG = 0x8000;

export function isDecimalType(typeId: number): boolean {
  // A list of decimals carries the decimal tag too: it is a list, not a decimal.
  return (typeId & (DECIMAL_TAG | LIST_TAG)) === DECIMAL_TAG;
}

/** Whether the type is a list: its rows hold the element type's values packed, addressed by
 *  byte offsets, as a string column's rows hold text (kernel/include/laneql/types.h). */
export function isListType(typeId: number): boolean {
  return (typeId & LIST_TAG) !== 0;
}

export function listElementType(typeId: number): number {
  return typeId & ~LIST_TAG;
}

export function listTypeId(elementTypeId: number): number {
  return LIST_TAG | elementTypeId;
}

export function decimalTypeId(precision: number, scale: number): number {
  return DECIMAL_TAG | (precision << 8) | scale;
}

export function decimalScale(typeId: number): number {
  return typeId & 0xff;
}

export function decimalPrecision(typeId: number): number {
  return (typeId >> 8) & 0x3f;
}

export function typeName(typeId: number): ColumnType {
  if (isListType(typeId)) return `${typeName(listElementType(typeId)) as ElementType}[]`;
  if (isDecimalType(typeId)) return `DECIMAL(${decimalPrecision(typeId)},${decimalScale(typeId)})`;
  const type = TYPES[typeId];
  if (type === undefined) throw new Error(`unknown laneql type id ${typeId}`);
  return type.name;
}

/** Bytes per value of a fixed-width type; 0 for strings and lists (whose rows vary in length). */
export function typeWidth(typeId: number): number {
  if (isListType(typeId)) return 0;
  if (isDecimalType(typeId)) return 16;
  return TYPES[typeId]?.width ?? 0;
}

/** VARCHAR (either offset width): rows of UTF-8 text. Not lists, though they share the layout. */
export function isStringType(typeId: number): boolean {
  return typeId === TypeId.String || typeId === TypeId.LargeString;
}

/** Bytes per offset of a column with offsets: 4 for VARCHAR and lists, 8 for LargeString, 0
 *  for fixed-width types (OffsetByteWidth in types.h). */
export function offsetWidth(typeId: number): number {
  if (typeId === TypeId.LargeString) return 8;
  return typeId === TypeId.String || isListType(typeId) ? 4 : 0;
}

const BY_NAME: ReadonlyMap<string, number> = new Map(
  TYPES.map((t, id) => [t.name, id] as [string, number]).filter(([, id]) => id !== TypeId.LargeString),
);

/** The type id of a ColumnType; undefined for a name that is not one. */
export function typeIdOf(name: string): number | undefined {
  if (name.endsWith('[]')) {
    const element = typeIdOf(name.slice(0, -2));
    return element !== undefined && isListElementType(element) ? listTypeId(element) : undefined;
  }
  const decimal = /^DECIMAL\((\d+),(\d+)\)$/.exec(name);
  if (decimal !== null) {
    const precision = Number(decimal[1]), scale = Number(decimal[2]);
    return precision >= 1 && precision <= 38 && scale <= precision ? decimalTypeId(precision, scale) : undefined;
  }
  return BY_NAME.get(name);
}

/** Lists hold fixed-width values only: no text, and no lists of lists. */
function isListElementType(typeId: number): boolean {
  return !isListType(typeId) && typeWidth(typeId) > 0;
}

export const COLUMN_TYPES: readonly ColumnType[] = [...BY_NAME.keys()] as ColumnType[];
