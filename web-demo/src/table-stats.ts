// What a registered table holds: rows, columns and bytes of column data, measured with SQL
// (fixed-width columns from their types, strings from the sum of their byte lengths).
import type { DecimalType, LaneQLWorker, ScalarType } from 'laneql';

export interface TableStats {
  table: string;
  rows: number;
  columns: number;
  /** Bytes of the table's column data in laneql's (Arrow's) layout, validity bitmaps aside. */
  bytes: number;
}

// Every DECIMAL(p,s) is 16 bytes (the scaled int128), so only the named types are listed (and
// no lists: a table cannot hold them).
const FIXED_WIDTH: Record<Exclude<ScalarType, 'VARCHAR' | DecimalType>, number> = {
  TINYINT: 1, UTINYINT: 1, BOOLEAN: 1,
  SMALLINT: 2, USMALLINT: 2,
  INTEGER: 4, UINTEGER: 4, FLOAT: 4, DATE: 4,
  BIGINT: 8, UBIGINT: 8, DOUBLE: 8, TIMESTAMP: 8, TIMESTAMP_S: 8, TIME: 8,
  HUGEINT: 16, INTERVAL: 16,
};

/** A SQL identifier, quoted. */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

export async function measureTable(worker: LaneQLWorker, table: string): Promise<TableStats> {
  const schema = await worker.query(`SELECT * FROM ${quoteIdentifier(table)} LIMIT 0`);
  const strings = schema.columnNames.filter((_, i) => schema.columnTypes[i] === 'VARCHAR');
  // One pass: the row count and each string column's bytes (strlen counts bytes, not characters).
  const sums = strings.map((name) => `sum(strlen(${quoteIdentifier(name)}))`);
  const totals = await worker.query(`SELECT count(*)${sums.map((s) => `, ${s}`).join('')} FROM ${quoteIdentifier(table)}`);
  const rows = Number((totals.column(0) as BigInt64Array)[0] ?? 0n);
  let bytes = 0;
  schema.columnTypes.forEach((type) => {
    // A string column also has an int32 offset per row, plus one.
    bytes += type === 'VARCHAR' ? 4 * (rows + 1) : type.startsWith('DECIMAL(') ? 16 * rows
      : FIXED_WIDTH[type as Exclude<ScalarType, 'VARCHAR' | DecimalType>] * rows;
  });
  strings.forEach((_, i) => {
    const sum = (totals.column(i + 1) as bigint[])[0];
    if (sum !== undefined && !totals.isNull(i + 1, 0)) bytes += Number(sum);
  });
  return { table, rows, columns: schema.columnNames.length, bytes };
}
