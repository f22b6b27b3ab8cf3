// Loading one wasm flavour: the Emscripten module's shape and a loader per flavour and platform.
import { isNode, type Flavour } from './platform.js';

/** The exports of laneql's wasm module (bindings-js/capi/laneql_capi.cc) and runtime we use. */
export interface LaneQLModule {
  // Pointers and size_t are wasm32 values: JavaScript receives them as *signed* 32-bit numbers.
  _laneql_version(): number;
  _laneql_info_json(): number;
  _laneql_max_threads(): number;
  _laneql_alloc(bytes: number): number;
  _laneql_free(ptr: number): void;
  _laneql_sum_f64(ptr: number, n: number, threads: number): number;
  _laneql_sum_i64(ptr: number, n: number, threads: number, outPtr: number): void;
  _laneql_error_message(): number;
  _laneql_error_line(): number;
  _laneql_error_column(): number;
  _laneql_set_memory_limit(bytes: number): void;
  _laneql_open(threads: number, queryMemoryLimitBytes: number): number;
  _laneql_close(db: number): void;
  _laneql_db_threads(db: number): number;
  _laneql_builder_new(): number;
  _laneql_builder_free(builder: number): void;
  _laneql_builder_add_column(
    builder: number, name: number, type: number, length: number, stringBytes: number, hasValidity: number,
  ): number;
  _laneql_builder_values(builder: number): number;
  _laneql_builder_offsets(builder: number): number;
  _laneql_builder_validity(builder: number): number;
  _laneql_register(db: number, name: number, builder: number): number;
  _laneql_register_csv(
    db: number, name: number, text: number, length: number, delimiter: number, header: number,
    nullString: number, createTable: number, skipBadRows: number,
  ): number;
  _laneql_generate_hits(db: number, name: number, rows: number, seed: number, columns: number): number;
  _laneql_tpch_table_names(): number;
  _laneql_check_tpch_scale(scaleFactor: number): number;
  _laneql_generate_tpch_table(db: number, table: number, scaleFactor: number, seed: number): number;
  _laneql_query(db: number, sql: number, length: number): number;
  _laneql_query_with(
    db: number, sql: number, length: number, threads: number, flags: number, timeoutMs: number,
    memoryLimitBytes: number,
  ): number;
  _laneql_last_profile(db: number): number;
  _laneql_like_counts(db: number, table: number, column: number, needle: number, length: number, out: number): number;
  _laneql_result_free(result: number): void;
  _laneql_result_rows(result: number): number;
  _laneql_result_columns(result: number): number;
  _laneql_result_name(result: number, i: number): number;
  _laneql_result_type(result: number, i: number): number;
  _laneql_result_values(result: number, i: number): number;
  _laneql_result_values_bytes(result: number, i: number): number;
  _laneql_result_offsets(result: number, i: number): number;
  _laneql_result_validity(result: number, i: number): number;
  UTF8ToString(ptr: number): string;
  /** A view of all wasm memory; replaced when memory grows, so re-read it after every call. */
  HEAPU8: Uint8Array;
  /** Only in the threaded flavours: the shared memory. A thread of the pool that grows it does
   *  not refresh HEAPU8 on the main thread, so the bindings view `wasmMemory.buffer` afresh. */
  wasmMemory?: WebAssembly.Memory;
  /** Only in the threaded flavours: the pool of Workers that run the module's threads. */
  PThread?: PthreadPool;
}

/** A Worker as the pool holds it: in Node a worker_threads Worker, which has unref(). */
interface PoolWorker {
  unref?: () => void;
}

/** Emscripten 3.1.6's pthread pool (library_pthread.js): idle Workers, Workers running a thread,
 *  and how it readies a Worker (at start-up, and one it adds when a thread finds none idle). */
interface PthreadPool {
  terminateAllThreads(): void;
  unusedWorkers?: PoolWorker[];
  runningWorkers?: PoolWorker[];
  loadWasmModuleToWorker?: (worker: PoolWorker, onFinishedLoading?: unknown) => void;
}

/** The options object the glue's factory takes (the subset we set). */
export interface ModuleArg {
  wasmBinary?: Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  mainScriptUrlOrBlob?: string;
}

export type ModuleFactory = (arg: ModuleArg) => Promise<LaneQLModule>;

// Node-only modules are imported through a variable so browser bundlers leave them alone.
function importNodeBuiltin<T>(specifier: string): Promise<T> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier) as Promise<T>;
}

// Emscripten 3.1.6's glue would fetch() the .wasm, which fails for a file path in Node: we read
// the bytes ourselves and hand them over as wasmBinary.
async function readBytes(url: URL): Promise<Uint8Array> {
  const fs = await importNodeBuiltin<typeof import('node:fs/promises')>('node:fs/promises');
  return new Uint8Array(await fs.readFile(url));
}

// The threaded Node glue is CommonJS (module.exports = factory) and installs process-wide
// 'uncaughtException' and 'unhandledRejection' listeners that rethrow, which would take over the
// host application's error handling; we remove whatever it added.
async function loadSimd128MtNode(): Promise<LaneQLModule> {
  const { createRequire } = await importNodeBuiltin<typeof import('node:module')>('node:module');
  const require = createRequire(import.meta.url);
  const factory = require('./wasm/simd128-mt-node/laneql-simd128-mt-node.js') as ModuleFactory;
  const wasmBinary = await readBytes(
    new URL('./wasm/simd128-mt-node/laneql-simd128-mt-node.wasm', import.meta.url),
  );
  const emitter: NodeJS.EventEmitter = process;
  const events = ['uncaughtException', 'unhandledRejection'];
  const before = events.map((event) => new Set(emitter.listeners(event)));
  const ready = factory({ wasmBinary });
  events.forEach((event, i) => {
    for (const listener of emitter.listeners(event)) {
      if (!before[i]?.has(listener)) emitter.removeListener(event, listener as () => void);
    }
  });
  // Only once the module is ready: while the pool loads, its Workers are what keeps Node running
  // until `await LaneQL.create()` resolves.
  const module = await ready;
  unrefPoolWorkers(module.PThread);
  return module;
}

// A referenced worker_threads Worker keeps Node's event loop alive, so the pool's Workers (idle,
// or running the database's threads, which wait between queries) would keep a script's process
// running after its last statement until close(). Unreferenced, they let Node exit once nothing
// else is pending. Nothing is lost: every call that uses threads blocks the main thread until
// they are done, so Node never waits asynchronously for a pthread.
function unrefPoolWorkers(pool: PthreadPool | undefined): void {
  if (pool === undefined) return;
  for (const worker of [...(pool.unusedWorkers ?? []), ...(pool.runningWorkers ?? [])]) worker.unref?.();
  // The pool adds a Worker when a thread starts and none is idle (it should not, as the pool is
  // sized for the most threads a call starts; see cmake/WasmFlavour.cmake): unreference that too,
  // after the glue has added its 'message' listener, since adding one references a Worker again.
  const load = pool.loadWasmModuleToWorker;
  if (load === undefined) return;
  pool.loadWasmModuleToWorker = (worker, onFinishedLoading) => {
    load.call(pool, worker, onFinishedLoading);
    worker.unref?.();
  };
}

interface BrowserAssets {
  glue: URL;
  wasm: URL;
  worker?: URL;
}

// The glue finds its .wasm (and pthread worker script) through locateFile; each URL is a literal
// `new URL('./…', import.meta.url)` so bundlers can see and copy the files.
function browserModuleArg(assets: BrowserAssets): ModuleArg {
  const locateFile = (path: string): string => {
    if (path.endsWith('.wasm')) return assets.wasm.href;
    if (path.endsWith('.worker.js') && assets.worker) return assets.worker.href;
    return new URL(path, assets.glue).href;
  };
  // The pthread workers import the glue themselves; a string, since a URL cannot be posted.
  return assets.worker ? { locateFile, mainScriptUrlOrBlob: assets.glue.href } : { locateFile };
}

async function loadSimd128(): Promise<LaneQLModule> {
  const { default: factory } = await import('./wasm/simd128/laneql-simd128.js');
  const wasm = new URL('./wasm/simd128/laneql-simd128.wasm', import.meta.url);
  if (isNode()) return factory({ wasmBinary: await readBytes(wasm) });
  const glue = new URL('./wasm/simd128/laneql-simd128.js', import.meta.url);
  return factory(browserModuleArg({ glue, wasm }));
}

async function loadScalar(): Promise<LaneQLModule> {
  const { default: factory } = await import('./wasm/scalar/laneql-scalar.js');
  const wasm = new URL('./wasm/scalar/laneql-scalar.wasm', import.meta.url);
  if (isNode()) return factory({ wasmBinary: await readBytes(wasm) });
  const glue = new URL('./wasm/scalar/laneql-scalar.js', import.meta.url);
  return factory(browserModuleArg({ glue, wasm }));
}

// Blocking joins are fine in a Worker; on a browser's main thread they busy-wait, so the
// threaded flavour is meant for a (module) Worker of a cross-origin isolated page.
async function loadSimd128MtWeb(): Promise<LaneQLModule> {
  const { default: factory } = await import('./wasm/simd128-mt-web/laneql-simd128-mt-web.js');
  return factory(
    browserModuleArg({
      glue: new URL('./wasm/simd128-mt-web/laneql-simd128-mt-web.js', import.meta.url),
      wasm: new URL('./wasm/simd128-mt-web/laneql-simd128-mt-web.wasm', import.meta.url),
      worker: new URL('./wasm/simd128-mt-web/laneql-simd128-mt-web.worker.js', import.meta.url),
    }),
  );
}

/** Instantiates the wasm module of `flavour` for this platform (Node or browser). */
export function loadModule(flavour: Flavour): Promise<LaneQLModule> {
  switch (flavour) {
    case 'simd128-mt':
      return isNode() ? loadSimd128MtNode() : loadSimd128MtWeb();
    case 'simd128':
      return loadSimd128();
    case 'scalar':
      return loadScalar();
  }
}
