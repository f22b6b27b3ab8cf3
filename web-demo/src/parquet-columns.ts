// A dropped Parquet file → laneql columns, through hyparquet (pure JavaScript). Each top-level
// column's Parquet type decides the laneql type; nested columns (lists, maps, structs) are left
// out, as laneql has no nested types.
import { parquetMetadata, parquetRead, parquetSchema, type SchemaTree } from 'hyparquet';
import type { ColumnInput, ColumnType, ColumnsInput } from 'laneql';

export interface ParquetColumns {
  columns: ColumnsInput;
  rows: number;
  /** Columns left out, with the reason. */
  skipped: string[];
}

// Keep raw integers: laneql takes DATE as days and TIMESTAMP as microseconds, and Date objects
// would lose microseconds.
const PARSERS = {
  timestampFromMilliseconds: (millis: bigint) => BigInt(millis) * 1000n,
  timestampFromMicroseconds: (micros: bigint) => BigInt(micros),
  timestampFromNanoseconds: (nanos: bigint) => BigInt(nanos) / 1000n,
  dateFromDays: (days: number) => days,
};

/** The laneql type for a flat Parquet column, or a reason it has none. */
function laneqlType(node: SchemaTree): ColumnType | string {
  const { type, converted_type: converted, logical_type: logical } = node.element;
  if (node.children.length > 0) return 'a nested column';
  if (logical?.type === 'DATE' || converted === 'DATE') return 'DATE';
  if (logical?.type === 'TIMESTAMP' || converted === 'TIMESTAMP_MILLIS' || converted === 'TIMESTAMP_MICROS' || type === 'INT96') {
    return 'TIMESTAMP';
  }
  if (logical?.type === 'DECIMAL' || converted === 'DECIMAL') return 'DOUBLE'; // hyparquet reads decimals as numbers
  if (logical?.type === 'INTEGER') {
    const widths: Record<number, [ColumnType, ColumnType]> = {
      8: ['TINYINT', 'UTINYINT'], 16: ['SMALLINT', 'USMALLINT'], 32: ['INTEGER', 'UINTEGER'], 64: ['BIGINT', 'UBIGINT'],
    };
    const pair = widths[logical.bitWidth];
    if (pair) return logical.isSigned ? pair[0] : pair[1];
  }
  const convertedInts: Partial<Record<string, ColumnType>> = {
    INT_8: 'TINYINT', INT_16: 'SMALLINT', INT_32: 'INTEGER', INT_64: 'BIGINT',
    UINT_8: 'UTINYINT', UINT_16: 'USMALLINT', UINT_32: 'UINTEGER', UINT_64: 'UBIGINT',
  };
  const fromConverted = converted === undefined ? undefined : convertedInts[converted];
  if (fromConverted) return fromConverted;
  switch (type) {
    case 'BOOLEAN': return 'BOOLEAN';
    case 'INT32': return 'INTEGER';
    case 'INT64': return 'BIGINT';
    case 'FLOAT': return 'FLOAT';
    case 'DOUBLE': return 'DOUBLE';
    case 'BYTE_ARRAY':
    case 'FIXED_LEN_BYTE_ARRAY':
      // hyparquet decodes BYTE_ARRAY as UTF-8 text; fixed-length ones only when they say so.
      return type === 'BYTE_ARRAY' || logical?.type === 'STRING' || converted === 'UTF8' ? 'VARCHAR' : 'binary data';
    default: return `Parquet type ${String(type)}`;
  }
}

type TypedArrayOf = new (n: number) => Int8Array | Int16Array | Int32Array | Uint8Array | Uint16Array |
  Uint32Array | Float32Array | Float64Array | BigInt64Array | BigUint64Array;

const ARRAY_OF: Partial<Record<ColumnType, TypedArrayOf>> = {
  TINYINT: Int8Array, SMALLINT: Int16Array, INTEGER: Int32Array, DATE: Int32Array,
  UTINYINT: Uint8Array, USMALLINT: Uint16Array, UINTEGER: Uint32Array,
  FLOAT: Float32Array, DOUBLE: Float64Array,
  BIGINT: BigInt64Array, TIMESTAMP: BigInt64Array, UBIGINT: BigUint64Array,
};

/** One column's values (null/undefined = NULL) as a laneql column of `type`. */
function toColumn(type: ColumnType, values: unknown[]): ColumnInput {
  const n = values.length;
  if (type === 'VARCHAR') return values.map((v) => (v === null || v === undefined ? null : String(v)));
  if (type === 'BOOLEAN') return values.map((v) => (v === null || v === undefined ? null : Boolean(v)));
  const Typed = ARRAY_OF[type]!;
  const out = new Typed(n);
  const valid = new Uint8Array(n);
  let nulls = 0;
  const big = out instanceof BigInt64Array || out instanceof BigUint64Array;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (v === null || v === undefined) {
      nulls++;
      continue;
    }
    valid[i] = 1;
    out[i] = (big ? BigInt(v as bigint | number) : Number(v)) as never;
  }
  return nulls === 0 ? { type, values: out } : { type, values: out, valid };
}

export async function readParquet(bytes: ArrayBuffer): Promise<ParquetColumns> {
  const metadata = parquetMetadata(bytes, { parsers: PARSERS });
  const rows = Number(metadata.num_rows);
  const types = new Map<string, ColumnType>();
  const skipped: string[] = [];
  for (const node of parquetSchema(metadata).children) {
    const type = laneqlType(node);
    const name = node.element.name;
    if (ARRAY_OF[type as ColumnType] || type === 'VARCHAR' || type === 'BOOLEAN') types.set(name, type as ColumnType);
    else skipped.push(`${name} (${type})`);
  }
  // Chunks arrive per column and row group; each lands at its rows.
  const values = new Map<string, unknown[]>([...types.keys()].map((name) => [name, new Array<unknown>(rows)]));
  await parquetRead({
    file: bytes,
    metadata,
    columns: [...types.keys()],
    parsers: PARSERS,
    onChunk({ columnName, columnData, rowStart, rowEnd }) {
      const target = values.get(columnName);
      if (target === undefined) return;
      for (let row = rowStart; row < Math.min(rowEnd, rows); row++) target[row] = columnData[row - rowStart];
    },
  });
  const columns: ColumnsInput = {};
  for (const [name, type] of types) columns[name] = toColumn(type, values.get(name)!);
  return { columns, rows, skipped };
}
