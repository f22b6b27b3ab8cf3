// The package's public data types: what goes into register() and what comes out of a query.
import type { Flavour } from './platform.js';

/**
 * A column type, as DuckDB names it (laneql's result types use the same names).
 * TIMESTAMP holds microseconds since 1970-01-01 UTC, TIMESTAMP_S seconds, DATE days.
 * A list type is its element type's name with '[]' (ListType); lists come out of queries only.
 */
export type ColumnType = ScalarType | ListType;

/** Every ColumnType but the lists. */
export type ScalarType =
  | 'TINYINT'
  | 'SMALLINT'
  | 'INTEGER'
  | 'BIGINT'
  | 'HUGEINT'
  | 'UTINYINT'
  | 'USMALLINT'
  | 'UINTEGER'
  | 'UBIGINT'
  | 'FLOAT'
  | 'DOUBLE'
  | 'BOOLEAN'
  | 'DATE'
  | 'TIMESTAMP'
  | 'TIMESTAMP_S'
  | 'TIME'
  | 'INTERVAL'
  | 'VARCHAR'
  | DecimalType;

/** DECIMAL(precision, scale), precision 1..38 and scale 0..precision, e.g. 'DECIMAL(15,2)'. */
export type DecimalType = `DECIMAL(${number},${number})`;

/** What a list's elements may be: any fixed-width type (not VARCHAR; no lists of lists). */
export type ElementType = Exclude<ScalarType, 'VARCHAR'>;

/**
 * A list of values of one element type, e.g. 'DOUBLE[]' (what quantile_cont(x, [0.25, 0.5])
 * returns), 'BIGINT[]', 'DECIMAL(18,3)[]'. A list's elements are never NULL; a whole list may
 * be. Query results only: register() and CSV columns cannot hold lists.
 */
export type ListType = `${ElementType}[]`;

/** The typed arrays register() accepts, each standing for one column type. */
export type NumericArray =
  | Int8Array
  | Int16Array
  | Int32Array
  | BigInt64Array
  | Uint8Array
  | Uint16Array
  | Uint32Array
  | BigUint64Array
  | Float32Array
  | Float64Array;

/**
 * An INTERVAL as DuckDB keeps it: months, days and microseconds apart (a month has no fixed
 * number of days).
 */
export interface IntervalValue {
  months: number;
  days: number;
  micros: bigint;
}

/** One value of a column in a plain array (null = SQL NULL). */
export type CellValue = number | bigint | string | boolean | Date | IntervalValue | null;

/** One row of a list column: its elements, each as a cell of the element type reads in a row
 *  object (Row), e.g. DOUBLE numbers, BIGINT bigints, DATE Dates, DECIMAL text. */
export type ListValue = Exclude<CellValue, null>[];

/**
 * A column with its type stated, for types a typed array cannot say (DATE, TIMESTAMP, BOOLEAN,
 * HUGEINT, ...) or to choose another than the default. `values` holds the type's physical values
 * (see ColumnType) as a typed array of the matching width or a plain array; in a plain array
 * null is NULL, and DATE / TIMESTAMP also take Date objects and ISO strings.
 * `valid` (optional, one entry per row, 0/false = NULL) marks NULLs in a typed array.
 */
export interface TypedColumn {
  type: ColumnType;
  values: NumericArray | readonly CellValue[];
  valid?: Uint8Array | readonly boolean[];
}

/**
 * A column for register(). Types are inferred:
 * - typed arrays: Int8Array TINYINT, Int16Array SMALLINT, Int32Array INTEGER, BigInt64Array BIGINT,
 *   Uint8Array UTINYINT, Uint16Array USMALLINT, Uint32Array UINTEGER, BigUint64Array UBIGINT,
 *   Float32Array FLOAT, Float64Array DOUBLE;
 * - plain arrays (null = NULL): strings VARCHAR; bigints BIGINT; booleans BOOLEAN; Dates TIMESTAMP;
 *   numbers BIGINT when every one is a safe integer, else DOUBLE; all null: VARCHAR.
 */
export type ColumnInput = NumericArray | readonly CellValue[] | TypedColumn;

/** A table for register(): columns by name, all of the same length. */
export type ColumnsInput = Record<string, ColumnInput>;

/**
 * What a query column reads as in JavaScript (QueryResult.column()):
 * TINYINT Int8Array, SMALLINT Int16Array, INTEGER Int32Array, BIGINT BigInt64Array,
 * UTINYINT Uint8Array, USMALLINT Uint16Array, UINTEGER Uint32Array, UBIGINT BigUint64Array,
 * FLOAT Float32Array, DOUBLE Float64Array, BOOLEAN Uint8Array (0/1), DATE Int32Array (days),
 * TIMESTAMP / TIMESTAMP_S BigInt64Array (micro / seconds), TIME BigInt64Array (microseconds
 * since midnight), HUGEINT bigint[], INTERVAL IntervalValue[], VARCHAR (string | null)[],
 * DECIMAL (string | null)[] of the exact decimal text ('12.50'; as node-postgres gives NUMERIC:
 * a number could not hold 38 digits), a list type (ListValue | null)[]: one array of elements
 * per row (as in toArray()'s rows: a DOUBLE[] row is number[], a DATE[] row Date[]), null for a
 * NULL list.
 * In typed arrays a NULL reads as 0: QueryResult.isNull() / nullMask() tell them apart.
 */
export type ColumnValues = NumericArray | bigint[] | IntervalValue[] | (string | null)[] | (ListValue | null)[];

/** One row of QueryResult.toArray(): a list column's value is a ListValue (or null). */
export type Row = Record<string, CellValue | ListValue>;

/** What a database reports about itself. */
export interface LaneQLInfo {
  version: string;
  flavour: Flavour;
  /** The Highway target the kernels run on: 'WASM' (SIMD) or 'EMU128' (scalar). */
  target: string;
  compiledTargets: string[];
  /** Threads a query uses: 1, or the calling thread plus the module's Worker pool. */
  threads: number;
  /** The memory limit in MB (memoryLimitMB, or the 4096 MB wasm32 can address). */
  memoryLimitMB: number;
  /** Each query's working-memory limit in MB (queryMemoryLimitMB; 0 = none). */
  queryMemoryLimitMB: number;
}

/** Settings of one query: query()'s second argument. */
export interface QueryOptions {
  /** Threads for this query: 1 .. info().threads (more are clamped to it). Default: all. */
  threads?: number;
  /** Record this query's timeline: QueryResult.profile is then its trace (else null). */
  profile?: boolean;
  /**
   * false: GROUP BY on one 8/16-bit or boolean key goes through the hash table instead of the
   * 65,536-slot lookup table (same results; for comparing the two). Default true.
   */
  smallKeyLookup?: boolean;
  /**
   * Stop the query after this many milliseconds: it throws LaneQLError "query timed out after
   * N ms" and the database stays usable. Default 0: no timeout.
   */
  timeoutMs?: number;
  /**
   * This query's working-memory limit in MB (hash tables, sort buffers, result columns...),
   * instead of the database's queryMemoryLimitMB; 0 = none (only the heap's memoryLimitMB).
   * Beyond it the query throws LaneQLError "out of memory: the query needs more than the
   * memory limit of N MiB (while ...)".
   */
  memoryLimitMB?: number;
}

/** A profile span's counters: rows read, bytes of column data read, hash-table probes. A hash
 *  join's spans ('hash join build', one 'hash join probe' per join, 'mark join probe' for IN /
 *  EXISTS) add the join counters, present only when non-zero: on a probe span `rows` are the
 *  probe rows and `probes` those that read the hash table. */
export interface ProfileCounters {
  rows: number;
  bytes: number;
  probes: number;
  /** The join's build-side rows. */
  build?: number;
  /** The partitions its hash table was placed in (1: one counting sort). */
  partitions?: number;
  /** Probe rows (with a non-NULL key) its runtime key filter dropped before the hash table. */
  filtered?: number;
  /** Probe-side source rows its min/max runtime filter left unread: ranges of a probe morsel
   *  whose zone maps say no key there lies within the build keys' range. */
  skipped?: number;
  /** Pairs of equal keys that passed the join's condition (a semi / anti / mark join: its left rows with a match). */
  matches?: number;
}

/**
 * One event of a query's timeline (trace-event format): a thread track's name ('M'), a span
 * ('X': a morsel of a scan, or a convert / merge / sort / output phase) or a track's totals at
 * the end ('C'). ts and dur are microseconds from the start of the query.
 */
export type TraceEvent =
  | { name: 'thread_name'; ph: 'M'; pid: number; tid: number; args: { name: string } }
  | { name: string; cat: string; ph: 'X'; pid: number; tid: number; ts: number; dur: number; args: ProfileCounters }
  | { name: 'totals'; ph: 'C'; pid: number; tid: number; id: number; ts: number; args: ProfileCounters };

/** A query's timeline (QueryOptions.profile) in the JSON that chrome://tracing and Perfetto open. */
export interface ProfileTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: string;
  otherData: { query: string; threads: number };
}

/** How many start positions each stage of the substring search lets through for LIKE '%needle%'. */
export interface LikePrefilterCounts {
  /** Rows of the column. */
  rows: number;
  /** Bytes of string data scanned. */
  bytes: number;
  /** Start positions the scan considers: max(0, bytes - needle bytes + 1). */
  positions: number;
  /** Positions where the needle's first byte matches (a one-character prefilter). */
  firstByte: number;
  /** Positions passing the engine's two-character prefilter. */
  twoByte: number;
  /** Positions where the whole needle lies inside one row. */
  verified: number;
  /** Non-NULL rows containing the needle (what WHERE column LIKE '%needle%' selects). */
  matchingRows: number;
  /** The two needle byte positions the prefilter compares. */
  prefilterPositions: [number, number];
  /** Milliseconds the counting pass took. */
  elapsedMs: number;
}
