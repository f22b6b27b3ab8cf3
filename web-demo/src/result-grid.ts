// A query result as plain JSON-friendly cells: what the results table shows and what the page
// exposes to its tests. Values are spelled as laneql (and DuckDB) print them: dates as
// YYYY-MM-DD, timestamps as YYYY-MM-DD HH:MM:SS[.ffffff], 64-bit and 128-bit integers as
// decimal strings (a JavaScript number holds only 53 bits).
import type { ColumnType, IntervalValue, QueryResult } from 'laneql';

export type Cell = number | string | boolean | null;

export interface ResultGrid {
  columns: string[];
  types: ColumnType[];
  /** All rows of the result. */
  numRows: number;
  /** The first rows (at most the cap given to toGrid). */
  rows: Cell[][];
}

const MS_PER_DAY = 86_400_000;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

function formatDate(days: number): string {
  const d = new Date(days * MS_PER_DAY);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

function formatTimestamp(micros: bigint): string {
  const seconds = micros / 1_000_000n - (micros % 1_000_000n < 0n ? 1n : 0n);
  const fraction = Number(micros - seconds * 1_000_000n);
  const d = new Date(Number(seconds) * 1000);
  const base = `${formatDate(Math.floor(Number(seconds) / 86_400))} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
  return fraction === 0 ? base : `${base}.${pad(fraction, 6).replace(/0+$/, '')}`;
}

/** JSON has no NaN or infinities: they become the strings DuckDB prints. */
function floatCell(v: number): Cell {
  if (Number.isNaN(v)) return 'nan';
  if (v === Infinity) return 'inf';
  if (v === -Infinity) return '-inf';
  return v;
}

/** A FLOAT as its shortest decimal that reads back as the same float32 (0.1, not 0.10000000149). */
function shortestFloat32(v: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(v.toPrecision(digits));
    if (Math.fround(candidate) === v) return candidate;
  }
  return v;
}

/** "HH:MM:SS[.ffffff]" of microseconds, as laneql prints a TIME or an interval's time. */
function formatClock(micros: bigint): string {
  const sign = micros < 0n ? '-' : '';
  const m = micros < 0n ? -micros : micros;
  const s = m / 1_000_000n;
  const two = (n: bigint) => String(n).padStart(2, '0');
  const fraction = m % 1_000_000n;
  const tail = fraction === 0n ? '' : '.' + String(fraction).padStart(6, '0').replace(/0+$/, '');
  return `${sign}${two(s / 3600n)}:${two((s / 60n) % 60n)}:${two(s % 60n)}${tail}`;
}

/** An INTERVAL as DuckDB spells it ("1 year 2 months 3 days 04:05:06"). */
function formatInterval(v: IntervalValue): string {
  const parts: string[] = [];
  const part = (n: number, unit: string) => {
    if (n !== 0) parts.push(`${n} ${unit}${Math.abs(n) === 1 ? '' : 's'}`);
  };
  part(Math.trunc(v.months / 12), 'year');
  part(v.months % 12, 'month');
  part(v.days, 'day');
  if (v.micros !== 0n || parts.length === 0) parts.push(formatClock(v.micros));
  return parts.join(' ');
}

// A list element as the package gives it in a list (a row object's value: numbers, bigints,
// Dates, decimal text, interval objects), spelled as DuckDB spells it inside a list.
function listElement(e: unknown, element: string): string {
  if (e instanceof Date && element === 'DATE') return e.toISOString().slice(0, 10);
  if (e instanceof Date) return e.toISOString().replace('T', ' ').replace(/(\.000)?Z$/, '');
  if (typeof e === 'object' && e !== null) return formatInterval(e as IntervalValue);
  return String(e);
}

function cell(type: ColumnType, values: ArrayLike<unknown>, row: number): Cell {
  const v = values[row];
  if (type.endsWith('[]')) return `[${(v as unknown[]).map((e) => listElement(e, type.slice(0, -2))).join(', ')}]`;
  if (type.startsWith('DECIMAL(')) return v as string;  // the exact text the package gives
  switch (type) {
    case 'BOOLEAN': return v === 1;
    case 'DATE': return formatDate(v as number);
    case 'TIMESTAMP': return formatTimestamp(v as bigint);
    case 'TIMESTAMP_S': return formatTimestamp((v as bigint) * 1_000_000n);
    case 'TIME': return formatClock(v as bigint);
    case 'INTERVAL': return formatInterval(v as IntervalValue);
    case 'FLOAT': return floatCell(Number.isFinite(v) ? shortestFloat32(v as number) : (v as number));
    case 'DOUBLE': return floatCell(v as number);
    case 'BIGINT':
    case 'UBIGINT':
    case 'HUGEINT': return String(v);
    case 'VARCHAR': return v as string | null;
    default: return v as number;
  }
}

/** The result's names, types and first `maxRows` rows. */
export function toGrid(result: QueryResult, maxRows: number): ResultGrid {
  const n = Math.min(result.numRows, maxRows);
  const columns = result.columnNames.map((_, i) => ({
    type: result.columnTypes[i]!,
    values: result.column(i) as ArrayLike<unknown>,
    nulls: result.nullMask(i),
  }));
  const rows: Cell[][] = [];
  for (let row = 0; row < n; row++) {
    rows.push(columns.map((c) => (c.nulls?.[row] ? null : cell(c.type, c.values, row))));
  }
  return { columns: result.columnNames, types: result.columnTypes, numRows: result.numRows, rows };
}
