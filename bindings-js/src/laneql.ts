// The LaneQL class: one wasm module with one database, and the checking of every argument.
import { isArrowTable, prepareArrowTable, type ArrowTableLike } from './arrow.js';
import { LaneQLBindings, QueryFlags, type CsvCall } from './bindings.js';
import { listColumnError, prepareColumns, type PreparedColumn } from './columns.js';
import { LaneQLError } from './errors.js';
import { loadModule } from './module.js';
import { detectFlavour, FLAVOURS, flavourUnsupportedReason, isFlavour, type Flavour } from './platform.js';
import { QueryResult } from './result-data.js';
import { isListType, typeIdOf } from './type-ids.js';
import type { ColumnsInput, ColumnType, LaneQLInfo, LikePrefilterCounts, QueryOptions } from './types.js';

export interface CreateOptions {
  /** The wasm build to load; default: the fastest this platform runs (see detectFlavour()). */
  flavour?: Flavour;
  /** Threads per query; 'auto' (default): all the module has (info().threads). */
  threads?: number | 'auto';
  /** The most memory the database may use, in MB (whole numbers, 16 to 4096; default 4096, all
   *  that wasm32 addresses): the whole wasm heap, tables included. Registering or querying
   *  beyond it throws LaneQLError. */
  memoryLimitMB?: number;
  /** The most working memory one query may hold, in MB (whole number, 0 = no limit of its own);
   *  default 80 % of memoryLimitMB, as DuckDB's default is 80 % of RAM. A query beyond it throws
   *  LaneQLError "out of memory: the query needs more than the memory limit of ...", and the
   *  database stays usable. QueryOptions.memoryLimitMB overrides it per query. */
  queryMemoryLimitMB?: number;
}

export interface SumOptions {
  /** Threads for this call, at least 1; more than the module allows means all it allows. */
  threads?: number;
}

export interface CsvOptions {
  /** One character; default: detected from the first lines (',', '\t', '|', ';'). */
  delimiter?: string;
  /** Whether the first line names the columns; default: detected. */
  header?: boolean;
  /** An unquoted field equal to this is NULL (an empty unquoted field is NULL anyway). */
  nullString?: string;
  /** The columns' names and types, in file order; default: names from the header, types inferred. */
  columns?: Record<string, ColumnType>;
  /** Or the columns as a CREATE TABLE statement (e.g. ClickBench's create.sql). */
  createTable?: string;
  /** Skip rows that do not parse instead of throwing (default false). */
  skipBadRows?: boolean;
}

/** What register() takes: columns by name, or an apache-arrow Table. */
export type TableInput = ColumnsInput | ArrowTableLike;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const WASM32_MB = 4096;
const MIN_MEMORY_MB = 16;

function checkThreads(threads: unknown): number {
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1) {
    throw new LaneQLError(`threads must be a positive integer, got ${String(threads)}`);
  }
  return threads;
}

function checkMemoryLimit(mb: unknown): number {
  if (mb === undefined) return WASM32_MB;
  if (typeof mb !== 'number' || !Number.isInteger(mb) || mb < MIN_MEMORY_MB || mb > WASM32_MB) {
    throw new LaneQLError(
      `memoryLimitMB must be a whole number from ${MIN_MEMORY_MB} to ${WASM32_MB} (wasm32's limit), got ${String(mb)}`,
    );
  }
  return mb;
}

// A whole number of MB from 0 (no limit) to wasm32's 4096.
function checkQueryMemoryLimit(what: string, mb: unknown): number {
  if (typeof mb !== 'number' || !Number.isInteger(mb) || mb < 0 || mb > WASM32_MB) {
    throw new LaneQLError(`${what} must be a whole number of MB from 0 (no limit) to ${WASM32_MB}, got ${String(mb)}`);
  }
  return mb;
}

function checkName(what: string, name: unknown): string {
  if (typeof name !== 'string' || name === '') throw new LaneQLError(`${what} must be a non-empty string`);
  return name;
}

function toFloat64Array(values: Float64Array | number[]): Float64Array {
  if (values instanceof Float64Array) return values;
  if (Array.isArray(values)) return Float64Array.from(values);
  throw new LaneQLError('sumFloat64 takes a Float64Array or an array of numbers');
}

// BigInt64Array.from() would silently wrap values outside int64 and give a wrong sum.
function toBigInt64Array(values: BigInt64Array | bigint[]): BigInt64Array {
  if (values instanceof BigInt64Array) return values;
  if (!Array.isArray(values)) {
    throw new LaneQLError('sumInt64 takes a BigInt64Array or an array of bigints');
  }
  const out = new BigInt64Array(values.length);
  values.forEach((v, i) => {
    if (typeof v !== 'bigint' || v < INT64_MIN || v > INT64_MAX) {
      throw new LaneQLError(`sumInt64: value at index ${i} is not a 64-bit integer bigint`);
    }
    out[i] = v;
  });
  return out;
}

/** The C ABI's CSV arguments from CsvOptions, checked. */
export function csvCall(options: CsvOptions = {}): CsvCall {
  const { delimiter, header, nullString = '', columns, createTable, skipBadRows = false } = options;
  if (delimiter !== undefined && (typeof delimiter !== 'string' || delimiter.length !== 1 || delimiter.charCodeAt(0) > 127)) {
    throw new LaneQLError(`delimiter must be one ASCII character, got ${JSON.stringify(delimiter)}`);
  }
  if (columns !== undefined && createTable !== undefined) {
    throw new LaneQLError('give the CSV columns either as columns or as createTable, not both');
  }
  let create = createTable ?? '';
  if (columns !== undefined) {
    const defs = Object.entries(columns).map(([name, type]) => {
      const typeId = typeIdOf(String(type));
      if (typeId === undefined) throw new LaneQLError(`column '${name}': unknown type '${String(type)}'`);
      if (isListType(typeId)) throw listColumnError(name);
      return `"${name.replaceAll('"', '""')}" ${type}`;
    });
    if (defs.length === 0) throw new LaneQLError('columns must name at least one column');
    create = `CREATE TABLE csv (${defs.join(', ')})`;
  }
  return {
    delimiter: delimiter === undefined ? 0 : delimiter.charCodeAt(0),
    header: header === undefined ? 0 : header ? 1 : 2,
    nullString,
    createTable: create,
    skipBadRows,
  };
}

export interface HitsOptions {
  /** Only these columns (names in any letter case); default: all 105. Each has the same values
   *  as in the whole table, which at 10 M rows (about 6 GB) does not fit in wasm32. */
  columns?: string[];
}

export interface TpchOptions {
  /** Only these tables (of region, nation, supplier, customer, part, partsupp, orders,
   *  lineitem); default: all 8. */
  tables?: string[];
}

/** generateTpch()'s arguments, checked here (where the mistake was made); the engine checks
 *  the scale factor's upper bounds. Returns the tables asked for ([] = all). */
export function checkTpchArguments(scaleFactor: unknown, seed: unknown, options: TpchOptions): string[] {
  if (typeof scaleFactor !== 'number' || !Number.isFinite(scaleFactor) || scaleFactor <= 0) {
    throw new LaneQLError(`the TPC-H scale factor must be a number > 0, got ${String(scaleFactor)}`);
  }
  if (!Number.isSafeInteger(seed) || (seed as number) < 0) {
    throw new LaneQLError(`seed must be a whole number >= 0, got ${String(seed)}`);
  }
  if (typeof options !== 'object' || options === null) throw new LaneQLError('generateTpch options must be an object');
  const tables = options.tables ?? [];
  if (!Array.isArray(tables) || tables.some((t) => typeof t !== 'string' || t === '')) {
    throw new LaneQLError('tables must be an array of TPC-H table names');
  }
  return tables;
}

/** query()'s options, checked, as the C ABI takes them (threads 0 = all). */
export function queryCall(
  options: QueryOptions | undefined,
): { threads: number; flags: number; timeoutMs: number; memoryLimitBytes: number } {
  if (options === undefined) return { threads: 0, flags: 0, timeoutMs: 0, memoryLimitBytes: -1 };
  if (typeof options !== 'object' || options === null) {
    throw new LaneQLError(
      'query options must be an object: { threads?, profile?, smallKeyLookup?, timeoutMs?, memoryLimitMB? }',
    );
  }
  const { timeoutMs = 0, memoryLimitMB } = options;
  if (typeof timeoutMs !== 'number' || !Number.isSafeInteger(timeoutMs) || timeoutMs < 0) {
    throw new LaneQLError(`query option timeoutMs must be a whole number of milliseconds >= 0, got ${String(timeoutMs)}`);
  }
  const memoryLimitBytes =
    memoryLimitMB === undefined ? -1 : checkQueryMemoryLimit('query option memoryLimitMB', memoryLimitMB) * 2 ** 20;
  for (const key of ['profile', 'smallKeyLookup'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean') {
      throw new LaneQLError(`query option ${key} must be a boolean, got ${String(options[key])}`);
    }
  }
  const threads = options.threads === undefined ? 0 : Math.min(checkThreads(options.threads), 1 << 16);
  const flags = (options.profile ? QueryFlags.Profile : 0) |
    (options.smallKeyLookup === false ? QueryFlags.NoSmallKeyLookup : 0);
  return { threads, flags, timeoutMs, memoryLimitBytes };
}

/** likePrefilterCounts()'s arguments, checked. */
export function checkLikeArguments(table: unknown, column: unknown, needle: unknown): void {
  if (typeof table !== 'string' || typeof column !== 'string' || typeof needle !== 'string') {
    throw new LaneQLError('likePrefilterCounts takes a table name, a column name and a needle, all strings');
  }
  if (needle.length === 0) throw new LaneQLError('likePrefilterCounts needs a needle of at least one character');
}

/** generateHits()'s arguments, checked; returns the columns to keep ([] = all). */
export function checkHitsArguments(rows: unknown, seed: unknown, options: HitsOptions): string[] {
  if (!Number.isSafeInteger(rows) || (rows as number) < 0) {
    throw new LaneQLError(`rows must be a whole number >= 0, got ${String(rows)}`);
  }
  if (!Number.isSafeInteger(seed) || (seed as number) < 0) {
    throw new LaneQLError(`seed must be a whole number >= 0, got ${String(seed)}`);
  }
  const columns = options.columns ?? [];
  if (!Array.isArray(columns) || columns.some((c) => typeof c !== 'string' || c === '' || c.includes(','))) {
    throw new LaneQLError('columns must be an array of column names');
  }
  return columns;
}

/** register()'s input in laneql's layout. */
export function prepareTable(table: TableInput): PreparedColumn[] {
  return isArrowTable(table) ? prepareArrowTable(table) : prepareColumns(table);
}

// Lets the package's own tests reach the bindings of an instance (see bindingsOf below).
let bindingsOfInstance: (db: LaneQL) => LaneQLBindings;

export class LaneQL {
  #bindings: LaneQLBindings | null;
  readonly #db: number;
  readonly #threads: number;
  readonly #memoryLimitMB: number;
  readonly #queryMemoryLimitMB: number;

  private constructor(bindings: LaneQLBindings, db: number, memoryLimitMB: number, queryMemoryLimitMB: number) {
    this.#bindings = bindings;
    this.#db = db;
    this.#threads = bindings.databaseThreads(db);
    this.#memoryLimitMB = memoryLimitMB;
    this.#queryMemoryLimitMB = queryMemoryLimitMB;
  }

  static {
    bindingsOfInstance = (db) => db.#open();
  }

  /** Loads a wasm flavour and opens a database in it. Rejects with LaneQLError for an unknown
   *  flavour, one this platform cannot run, or bad options. */
  static async create(options: CreateOptions = {}): Promise<LaneQL> {
    const flavour = options.flavour ?? detectFlavour();
    if (!isFlavour(flavour)) {
      throw new LaneQLError(`unknown flavour '${String(flavour)}'; expected one of ${FLAVOURS.join(', ')}`);
    }
    const unsupported = flavourUnsupportedReason(flavour);
    if (unsupported !== null) throw new LaneQLError(unsupported);
    const threadsOption = options.threads ?? 'auto';
    const threads = threadsOption === 'auto' ? null : checkThreads(threadsOption);
    const memoryLimitMB = checkMemoryLimit(options.memoryLimitMB);
    const queryMemoryLimitMB =
      options.queryMemoryLimitMB === undefined
        ? Math.floor(memoryLimitMB * 0.8)
        : checkQueryMemoryLimit('queryMemoryLimitMB', options.queryMemoryLimitMB);

    let bindings: LaneQLBindings;
    try {
      bindings = new LaneQLBindings(await loadModule(flavour));
    } catch (cause) {
      if (cause instanceof LaneQLError) throw cause;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new LaneQLError(`cannot load the '${flavour}' wasm module: ${reason}`, { cause });
    }
    if (memoryLimitMB < WASM32_MB) bindings.setMemoryLimit(memoryLimitMB * 2 ** 20);
    const max = bindings.info.threads;
    const db = bindings.open(threads === null ? max : Math.min(threads, max), queryMemoryLimitMB * 2 ** 20);
    return new LaneQL(bindings, db, memoryLimitMB, queryMemoryLimitMB);
  }

  /** The same API in a Worker (a module Worker in browsers, worker_threads in Node), every
   *  method returning a Promise. Threaded wasm belongs in a Worker in browsers. */
  static async createWorker(options: CreateOptions = {}): Promise<import('./worker-proxy.js').LaneQLWorker> {
    const { LaneQLWorker } = await import('./worker-proxy.js');
    return LaneQLWorker.start(options);
  }

  #open(): LaneQLBindings {
    if (this.#bindings === null) throw new LaneQLError('closed: this LaneQL instance was closed');
    return this.#bindings;
  }

  // Says which limit a failed allocation ran into.
  #explainMemory(error: unknown): unknown {
    // A query's own limit names itself ("... the memory limit of N MiB (while ...)").
    if (error instanceof LaneQLError && /out of memory/.test(error.message) && !/memory limit of/.test(error.message)) {
      error.message +=
        this.#memoryLimitMB < WASM32_MB
          ? ` (the memory limit is ${this.#memoryLimitMB} MB: memoryLimitMB)`
          : ` (the memory limit is ${WASM32_MB} MB, all that wasm32 addresses)`;
    }
    return error;
  }

  #call<T>(body: (bindings: LaneQLBindings) => T): T {
    const bindings = this.#open();
    try {
      return body(bindings);
    } catch (error) {
      throw this.#explainMemory(error);
    }
  }

  /** Registers a table under `name` (SQL finds it in any letter case), replacing one of that
   *  name. The values are copied into wasm memory once. */
  register(name: string, table: TableInput): void {
    checkName('the table name', name);
    this.#open();
    const columns = prepareTable(table);
    this.#call((b) => b.register(this.#db, name, columns));
  }

  /** @internal Registers columns already in laneql's layout (the Worker does). */
  registerPrepared(name: string, columns: PreparedColumn[]): void {
    checkName('the table name', name);
    this.#call((b) => b.register(this.#db, name, columns));
  }

  /** Reads CSV text into a table registered as `name`; returns the rows read. */
  registerCSV(name: string, csv: string | Uint8Array, options?: CsvOptions): number {
    checkName('the table name', name);
    if (typeof csv !== 'string' && !(csv instanceof Uint8Array)) {
      throw new LaneQLError('registerCSV takes the CSV as a string or a Uint8Array');
    }
    const call = csvCall(options);
    return this.#call((b) => b.registerCsv(this.#db, name, csv, call));
  }

  /** Registers `rows` rows of laneql's generated ClickBench `hits` data (105 columns, or just
   *  `options.columns`; the same bytes as the native generator for the same rows and seed). */
  generateHits(name: string, rows: number, seed = 1, options: HitsOptions = {}): void {
    checkName('the table name', name);
    const columns = checkHitsArguments(rows, seed, options);
    this.#call((b) => b.generateHits(this.#db, name, rows, seed, columns));
  }

  /** Registers TPC-H's 8 tables (or `options.tables`) at `scaleFactor` under their own names
   *  (region, nation, supplier, customer, part, partsupp, orders, lineitem): the same rows as
   *  `laneql gen tpch --sf scaleFactor --seed seed`. Returns each table's rows by name. A bad
   *  scale factor (or one too large for the engine) throws before any table is made. */
  generateTpch(scaleFactor: number, seed = 1, options: TpchOptions = {}): Record<string, number> {
    const asked = checkTpchArguments(scaleFactor, seed, options);
    return this.#call((b) => {
      const names = b.tpchTableNames();
      const unknown = asked.find((t) => !names.includes(t.toLowerCase()));
      if (unknown !== undefined) {
        throw new LaneQLError(`unknown TPC-H table '${unknown}' (the tables: ${names.join(', ')})`);
      }
      b.checkTpchScale(scaleFactor);
      const rows: Record<string, number> = {};
      for (const name of names) {
        if (asked.length === 0 || asked.some((t) => t.toLowerCase() === name)) {
          rows[name] = b.generateTpchTable(this.#db, name, scaleFactor, seed);
        }
      }
      return rows;
    });
  }

  /** Runs one SQL statement. Errors throw LaneQLError with the line and column in `sql`. */
  query(sql: string, options?: QueryOptions): QueryResult {
    if (typeof sql !== 'string') throw new LaneQLError('query takes the SQL as a string');
    const { threads, flags, timeoutMs, memoryLimitBytes } = queryCall(options);
    return new QueryResult(this.#call((b) => b.query(this.#db, sql, threads, flags, timeoutMs, memoryLimitBytes)));
  }

  /** Counts what each stage of the substring search lets through for `column` LIKE
   *  '%needle%' (positions, one- and two-character prefilter candidates, verified matches). */
  likePrefilterCounts(table: string, column: string, needle: string): LikePrefilterCounts {
    checkLikeArguments(table, column, needle);
    return this.#call((b) => b.likeCounts(this.#db, table, column, needle));
  }

  /** laneql's version, as compiled into the wasm module. */
  version(): string {
    return this.#open().version();
  }

  info(): LaneQLInfo {
    const info = this.#open().info;
    return {
      version: info.version,
      flavour: info.flavour,
      target: info.target,
      compiledTargets: [...info.compiledTargets],
      threads: this.#threads,
      memoryLimitMB: this.#memoryLimitMB,
      queryMemoryLimitMB: this.#queryMemoryLimitMB,
    };
  }

  /** SUM in laneql's fixed order: the same bits for every flavour and thread count. */
  sumFloat64(values: Float64Array | number[], options?: SumOptions): number {
    const threads = this.#callThreads(options);
    return this.#call((b) => b.sumFloat64(toFloat64Array(values), threads));
  }

  /** Exact SUM (no overflow: the result may exceed 64 bits). */
  sumInt64(values: BigInt64Array | bigint[], options?: SumOptions): bigint {
    const threads = this.#callThreads(options);
    return this.#call((b) => b.sumInt64(toBigInt64Array(values), threads));
  }

  #callThreads(options?: SumOptions): number {
    // Clamped here as well as in C: a huge count would wrap around as a 32-bit argument.
    const requested = options?.threads === undefined ? this.#threads : checkThreads(options.threads);
    return Math.min(requested, this.#open().info.threads);
  }

  /** Frees the database, ends the module's threads and releases it; later calls throw
   *  LaneQLError. Idempotent. */
  close(): void {
    const bindings = this.#bindings;
    this.#bindings = null;
    if (bindings !== null) {
      bindings.closeDatabase(this.#db);
      bindings.terminateThreads();
    }
  }
}

/** @internal For laneql's tests (not exported by the package entry): the instance's bindings. */
export function bindingsOf(db: LaneQL): LaneQLBindings {
  return bindingsOfInstance(db);
}
