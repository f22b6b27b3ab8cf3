// LaneQLWorker: the LaneQL API with the engine in a Worker, every method returning a Promise.
// In browsers the Worker is a module Worker (threaded wasm must run off the page's main thread);
// in Node it is a worker_threads Worker. Tables are converted to laneql's layout here, results
// come back as their buffers (transferred, not copied) and are read lazily here.
import { LaneQLError } from './errors.js';
import {
  checkHitsArguments,
  checkTpchArguments,
  checkLikeArguments,
  csvCall,
  prepareTable,
  queryCall,
  type CreateOptions,
  type CsvOptions,
  type HitsOptions,
  type TpchOptions,
  type TableInput,
} from './laneql.js';
import { isNode } from './platform.js';
import { QueryResult, type RawResult } from './result-data.js';
import type { LaneQLInfo, LikePrefilterCounts, QueryOptions } from './types.js';
import type { Endpoint, WorkerMethod, WorkerRequest, WorkerResponse } from './worker-protocol.js';

async function startEndpoint(): Promise<Endpoint> {
  if (isNode()) {
    const script = new URL('./worker-entry.js', import.meta.url);
    const { Worker } = (await import(/* @vite-ignore */ 'node:worker_threads' as string)) as typeof import('node:worker_threads');
    const worker = new Worker(script);
    return {
      post: (message, transfer) => worker.postMessage(message, transfer as never[]),
      onMessage: (handler) => worker.on('message', handler),
      onError: (handler) => worker.on('error', handler),
      terminate: () => void worker.terminate(),
      keepAlive: (on) => (on ? worker.ref() : worker.unref()),
    };
  }
  // In one expression, as bundlers (Vite, webpack) recognise it: they then bundle the Worker's
  // script with its imports. A URL held in a variable is copied as a bare file instead.
  const worker = new Worker(new URL('./worker-entry.js', import.meta.url), { type: 'module' });
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    onMessage: (handler) => worker.addEventListener('message', (event) => handler(event.data)),
    onError: (handler) => worker.addEventListener('error', (event) => handler(event.message ?? event)),
    terminate: () => worker.terminate(),
    keepAlive: () => {},
  };
}

// A view over part of a larger buffer would post the whole buffer: copy just its bytes.
function ownBytes(view: Uint8Array): Uint8Array {
  return view.byteOffset === 0 && view.byteLength === view.buffer.byteLength ? view : view.slice();
}

export class LaneQLWorker {
  readonly #endpoint: Endpoint;
  readonly #pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: unknown) => void }>();
  #nextId = 1;
  #closed = false;
  #failure: LaneQLError | null = null;

  private constructor(endpoint: Endpoint) {
    this.#endpoint = endpoint;
    endpoint.onMessage((message) => this.#settle(message as WorkerResponse));
    endpoint.onError((error) => {
      this.#failure = new LaneQLError(`the laneql Worker failed: ${error instanceof Error ? error.message : String(error)}`);
      for (const { reject } of this.#pending.values()) reject(this.#failure);
      this.#pending.clear();
      endpoint.keepAlive(false);
    });
  }

  /** Starts the Worker and loads the engine in it. */
  static async start(options: CreateOptions): Promise<LaneQLWorker> {
    const worker = new LaneQLWorker(await startEndpoint());
    try {
      await worker.#request('create', [options]);
    } catch (error) {
      worker.#endpoint.terminate();
      throw error;
    }
    return worker;
  }

  #settle(response: WorkerResponse): void {
    const pending = this.#pending.get(response.id);
    if (pending === undefined) return;
    this.#pending.delete(response.id);
    // Idle, the Worker lets Node exit once the script is done (no close() needed). The code that
    // awaits this answer runs as a microtask, before the event loop next checks whether anything
    // keeps it alive, so a request it makes next references the Worker again in time.
    if (this.#pending.size === 0) this.#endpoint.keepAlive(false);
    if (response.ok) {
      pending.resolve(response.value);
      return;
    }
    const { message, line, column, laneql } = response.error;
    pending.reject(new LaneQLError(laneql ? message : `internal error in the laneql Worker: ${message}`, { line, column }));
  }

  #request(method: WorkerMethod, args: unknown[], transfer: Transferable[] = []): Promise<unknown> {
    if (this.#closed) return Promise.reject(new LaneQLError('closed: this LaneQL worker was closed'));
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // Referenced while a request is in flight, so that Node waits for its answer.
      this.#endpoint.keepAlive(true);
      const request: WorkerRequest = { id, method, args };
      this.#endpoint.post(request, transfer);
    });
  }

  async register(name: string, table: TableInput): Promise<void> {
    const columns = prepareTable(table).map((c) => ({ ...c, data: ownBytes(c.data) }));
    await this.#request('registerPrepared', [name, columns]);
  }

  async registerCSV(name: string, csv: string | Uint8Array, options?: CsvOptions): Promise<number> {
    csvCall(options); // the options are checked here, where the mistake was made
    return (await this.#request('registerCSV', [name, csv, options])) as number;
  }

  async generateHits(name: string, rows: number, seed = 1, options: HitsOptions = {}): Promise<void> {
    checkHitsArguments(rows, seed, options);
    await this.#request('generateHits', [name, rows, seed, options]);
  }

  async generateTpch(scaleFactor: number, seed = 1, options: TpchOptions = {}): Promise<Record<string, number>> {
    checkTpchArguments(scaleFactor, seed, options);
    return (await this.#request('generateTpch', [scaleFactor, seed, options])) as Record<string, number>;
  }

  async query(sql: string, options?: QueryOptions): Promise<QueryResult> {
    queryCall(options); // checked here, where the mistake was made
    return new QueryResult((await this.#request('query', [sql, options])) as RawResult);
  }

  async likePrefilterCounts(table: string, column: string, needle: string): Promise<LikePrefilterCounts> {
    checkLikeArguments(table, column, needle);
    return (await this.#request('likePrefilterCounts', [table, column, needle])) as LikePrefilterCounts;
  }

  async info(): Promise<LaneQLInfo> {
    return (await this.#request('info', [])) as LaneQLInfo;
  }

  async version(): Promise<string> {
    return (await this.#request('version', [])) as string;
  }

  /** Closes the database and ends the Worker. Idempotent; later calls reject with LaneQLError. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      if (this.#failure === null) await this.#request('close', []);
    } finally {
      this.#closed = true;
      this.#endpoint.terminate();
    }
  }
}
