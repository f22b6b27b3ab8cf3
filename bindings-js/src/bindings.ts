// A synchronous wrapper over one loaded wasm module: marshalling of columns and results.
import type { PreparedColumn } from './columns.js';
import { LaneQLError } from './errors.js';
import type { LaneQLModule } from './module.js';
import { isFlavour, type Flavour } from './platform.js';
import type { RawColumn, RawResult } from './result-data.js';
import type { LikePrefilterCounts } from './types.js';
import { isStringType, offsetWidth } from './type-ids.js';

/** What a loaded module reports about itself (before a database is opened). */
export interface ModuleInfo {
  version: string;
  flavour: Flavour;
  /** The Highway target the kernels run on: 'WASM' (SIMD) or 'EMU128' (scalar). */
  target: string;
  compiledTargets: string[];
  /** The most threads one call can use: 1, or the calling thread plus the Worker pool. */
  threads: number;
}

/** CSV options as the C ABI takes them (see laneql_register_csv). */
export interface CsvCall {
  delimiter: number;
  header: 0 | 1 | 2;
  nullString: string;
  createTable: string;
  skipBadRows: boolean;
}

const encoder = new TextEncoder();

// wasm32 memory ends at 4 GiB less one 64 KiB page. A size past it must be refused here: as a
// size_t argument it would wrap around modulo 2^32 and allocate far too little.
const MAX_WASM_BYTES = 0xffff0000;

function parseInfo(json: string): ModuleInfo {
  const raw = JSON.parse(json) as Record<string, unknown>;
  const { version, flavour, target, compiled_targets: compiled, threads } = raw;
  if (
    typeof version !== 'string' ||
    !isFlavour(flavour) ||
    typeof target !== 'string' ||
    !Array.isArray(compiled) ||
    !compiled.every((t): t is string => typeof t === 'string') ||
    typeof threads !== 'number'
  ) {
    throw new LaneQLError(`unexpected info from the wasm module: ${json}`);
  }
  return { version, flavour, target, compiledTargets: compiled, threads };
}

/** laneql_query_with's flags (bindings-js/capi/laneql_capi.cc). */
export const QueryFlags = { Profile: 1, NoSmallKeyLookup: 2 } as const;

export class LaneQLBindings {
  readonly info: ModuleInfo;
  readonly #module: LaneQLModule;

  constructor(module: LaneQLModule) {
    this.#module = module;
    this.info = parseInfo(module.UTF8ToString(module._laneql_info_json()));
  }

  version(): string {
    return this.#module.UTF8ToString(this.#module._laneql_version());
  }

  /** 64-byte aligned wasm memory (an unsigned offset); throws LaneQLError when it does not fit. */
  alloc(bytes: number): number {
    if (!Number.isSafeInteger(bytes) || bytes < 0) {
      throw new LaneQLError(`cannot allocate ${bytes} bytes: not a byte count`);
    }
    const ptr = bytes > MAX_WASM_BYTES ? 0 : this.#module._laneql_alloc(bytes) >>> 0;
    if (ptr === 0) {
      throw new LaneQLError(
        `out of wasm memory: cannot allocate ${bytes} bytes (wasm32 memory is at most 4 GiB)`,
      );
    }
    return ptr;
  }

  free(ptr: number): void {
    this.#module._laneql_free(ptr);
  }

  sumFloat64(values: Float64Array, threads: number): number {
    const ptr = this.alloc(values.byteLength);
    try {
      new Float64Array(this.#heap().buffer, ptr, values.length).set(values);
      return this.#module._laneql_sum_f64(ptr, values.length, threads);
    } finally {
      this.free(ptr);
    }
  }

  sumInt64(values: BigInt64Array, threads: number): bigint {
    // One allocation: the column, then 16 bytes (8-aligned, as the column ends on 8) for the
    // 128-bit result, which comes back through memory since this Emscripten has no BigInt i64.
    const outOffset = values.byteLength;
    const ptr = this.alloc(outOffset + 16);
    try {
      new BigInt64Array(this.#heap().buffer, ptr, values.length).set(values);
      this.#module._laneql_sum_i64(ptr, values.length, threads, ptr + outOffset);
      const [low = 0n, high = 0n] = new BigUint64Array(this.#heap().buffer, ptr + outOffset, 2);
      return (BigInt.asIntN(64, high) << 64n) + low;
    } finally {
      this.free(ptr);
    }
  }

  /** All of wasm memory as bytes, as it is now (re-read after every call into the module:
   *  memory may have grown, which replaces the buffer). */
  #heap(): Uint8Array {
    const m = this.#module;
    const shared = m.wasmMemory?.buffer;
    return shared !== undefined && shared !== m.HEAPU8.buffer ? new Uint8Array(shared) : m.HEAPU8;
  }

  /** The last error of the C ABI as a LaneQLError (line and column where the SQL has them). */
  #lastError(context: string): LaneQLError {
    const m = this.#module;
    const message = m.UTF8ToString(m._laneql_error_message());
    const line = m._laneql_error_line();
    const column = m._laneql_error_column();
    if (line > 0) return new LaneQLError(message, { line, column });
    // CSV errors say where in the text: "<csv>:LINE:COLUMN: ...".
    const at = /^<csv>:(\d+):(\d+): /.exec(message);
    if (at) return new LaneQLError(`${context}${message}`, { line: Number(at[1]), column: Number(at[2]) });
    return new LaneQLError(`${context}${message}`);
  }

  /** Copies `bytes` (plus a terminating 0) into wasm memory. */
  #copyIn(bytes: Uint8Array): number {
    const ptr = this.alloc(bytes.length + 1);
    const heap = this.#heap();
    heap.set(bytes, ptr);
    heap[ptr + bytes.length] = 0;
    return ptr;
  }

  /** Runs `body` with each string as a C string in wasm memory, freed afterwards. */
  #withStrings<T>(strings: readonly (string | Uint8Array)[], body: (ptrs: number[], lengths: number[]) => T): T {
    const ptrs: number[] = [];
    const lengths: number[] = [];
    try {
      for (const s of strings) {
        const bytes = typeof s === 'string' ? encoder.encode(s) : s;
        ptrs.push(this.#copyIn(bytes));
        lengths.push(bytes.length);
      }
      return body(ptrs, lengths);
    } finally {
      for (const p of ptrs) this.free(p);
    }
  }

  setMemoryLimit(bytes: number): void {
    this.#module._laneql_set_memory_limit(bytes);
  }

  /** A database handle; throws LaneQLError when it cannot be created. `queryMemoryLimitBytes`:
   *  each query's working-memory limit (0: none). */
  open(threads: number, queryMemoryLimitBytes = 0): number {
    const db = this.#module._laneql_open(threads, queryMemoryLimitBytes) >>> 0;
    if (db === 0) throw this.#lastError('cannot open a database: ');
    return db;
  }

  closeDatabase(db: number): void {
    this.#module._laneql_close(db);
  }

  databaseThreads(db: number): number {
    return this.#module._laneql_db_threads(db);
  }

  /** Registers prepared columns: each buffer is written straight into the column's own memory. */
  register(db: number, name: string, columns: readonly PreparedColumn[]): void {
    const m = this.#module;
    const context = `cannot register '${name}': `;
    const builder = m._laneql_builder_new() >>> 0;
    if (builder === 0) throw this.#lastError(context);
    let consumed = false;
    try {
      for (const c of columns) {
        const added = this.#withStrings([c.name], ([namePtr]) =>
          m._laneql_builder_add_column(builder, namePtr!, c.typeId, c.length, c.data.length, c.validity ? 1 : 0),
        );
        if (!added) throw this.#lastError(context);
                this.#heap().set(c.data, m._laneql_builder_values(builder) >>> 0);
        if (isStringType(c.typeId) && c.offsets) {
          const offsets = m._laneql_builder_offsets(builder) >>> 0;
          new Int32Array(this.#heap().buffer, offsets, c.length + 1).set(c.offsets);
        }
        if (c.validity) this.#heap().set(c.validity, m._laneql_builder_validity(builder) >>> 0);
      }
      consumed = true;
      const ok = this.#withStrings([name], ([namePtr]) => m._laneql_register(db, namePtr!, builder));
      if (!ok) throw this.#lastError(context);
    } finally {
      if (!consumed) m._laneql_builder_free(builder);
    }
  }

  /** Reads CSV text into a table; returns its rows. */
  registerCsv(db: number, name: string, text: string | Uint8Array, options: CsvCall): number {
    const m = this.#module;
    const rows = this.#withStrings(
      [name, text, options.nullString, options.createTable],
      ([namePtr, textPtr, nullPtr, createPtr], [, textLength]) =>
        m._laneql_register_csv(
          db, namePtr!, textPtr!, textLength!, options.delimiter, options.header, nullPtr!, createPtr!,
          options.skipBadRows ? 1 : 0,
        ),
    );
    if (rows < 0) throw this.#lastError(`cannot read CSV into '${name}': `);
    return rows;
  }

  generateHits(db: number, name: string, rows: number, seed: number, columns: readonly string[]): void {
    const m = this.#module;
    const ok = this.#withStrings([name, columns.join(',')], ([namePtr, columnsPtr]) =>
      m._laneql_generate_hits(db, namePtr!, rows, seed, columnsPtr!),
    );
    if (!ok) throw this.#lastError(`cannot generate '${name}': `);
  }

  /** TPC-H's table names, in the order the generator makes them. */
  tpchTableNames(): string[] {
    return this.#module.UTF8ToString(this.#module._laneql_tpch_table_names()).split(',');
  }

  /** Throws when the TPC-H tables cannot be made at this scale factor (nothing is made). */
  checkTpchScale(scaleFactor: number): void {
    if (!this.#module._laneql_check_tpch_scale(scaleFactor)) throw this.#lastError('cannot generate TPC-H: ');
  }

  /** Registers one TPC-H table under its own name; returns its rows. */
  generateTpchTable(db: number, table: string, scaleFactor: number, seed: number): number {
    const m = this.#module;
    const rows = this.#withStrings([table], ([tablePtr]) => m._laneql_generate_tpch_table(db, tablePtr!, scaleFactor, seed));
    if (rows < 0) throw this.#lastError(`cannot generate TPC-H table '${table}': `);
    return rows;
  }

  /** Runs one statement; the result's buffers are copied out of wasm memory and freed there.
   *  `threads` 0 = the database's; `flags` QueryFlags; `timeoutMs` 0 = none;
   *  `memoryLimitBytes` -1 = the database's, 0 = none. */
  query(db: number, sql: string, threads = 0, flags = 0, timeoutMs = 0, memoryLimitBytes = -1): RawResult {
    const m = this.#module;
    let elapsedMs = 0;
    const result = this.#withStrings([sql], ([sqlPtr], [length]) => {
      const start = performance.now();
      const handle = m._laneql_query_with(db, sqlPtr!, length!, threads, flags, timeoutMs, memoryLimitBytes) >>> 0;
      elapsedMs = performance.now() - start;
      return handle;
    });
    if (result === 0) throw this.#lastError('');
    try {
      const numRows = m._laneql_result_rows(result);
      const columns: RawColumn[] = [];
      const n = m._laneql_result_columns(result);
      for (let i = 0; i < n; i++) {
        const typeId = m._laneql_result_type(result, i);
        const copy = (ptr: number, bytes: number): ArrayBuffer =>
          bytes === 0 ? new ArrayBuffer(0) : this.#heap().slice(ptr >>> 0, (ptr >>> 0) + bytes).buffer;
        const values = copy(m._laneql_result_values(result, i), m._laneql_result_values_bytes(result, i) >>> 0);
        // VARCHAR and lists have rows + 1 offsets (a list's count bytes of its packed elements).
        const width = offsetWidth(typeId);
        const offsets = width === 0 ? null : copy(m._laneql_result_offsets(result, i), (numRows + 1) * width);
        const validityPtr = m._laneql_result_validity(result, i) >>> 0;
        const validity = validityPtr === 0 ? null : copy(validityPtr, Math.ceil(numRows / 64) * 8);
        columns.push({ name: m.UTF8ToString(m._laneql_result_name(result, i)), typeId, values, offsets, validity });
      }
      const profile = flags & QueryFlags.Profile ? m.UTF8ToString(m._laneql_last_profile(db)) : null;
      return { numRows, columns, elapsedMs, profile };
    } finally {
      m._laneql_result_free(result);
    }
  }

  /** The substring prefilter's stages for LIKE '%needle%' on a VARCHAR column. */
  likeCounts(db: number, table: string, column: string, needle: string): LikePrefilterCounts {
    const m = this.#module;
    const out = this.alloc(9 * 8);
    try {
      let elapsedMs = 0;
      const ok = this.#withStrings([table, column, needle], ([t, c, n], [, , length]) => {
        const start = performance.now();
        const done = m._laneql_like_counts(db, t!, c!, n!, length!, out);
        elapsedMs = performance.now() - start;
        return done;
      });
      if (!ok) throw this.#lastError('');
      const v = Array.from(new Float64Array(this.#heap().buffer, out, 9));
      return {
        rows: v[0]!, bytes: v[1]!, positions: v[2]!, firstByte: v[3]!, twoByte: v[4]!, verified: v[5]!,
        matchingRows: v[6]!, prefilterPositions: [v[7]!, v[8]!], elapsedMs,
      };
    } finally {
      this.free(out);
    }
  }

  /** Ends the Worker pool of a threaded module (which otherwise keeps Node running). */
  terminateThreads(): void {
    this.#module.PThread?.terminateAllThreads();
  }
}
