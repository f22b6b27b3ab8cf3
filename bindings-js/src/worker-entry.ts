// The script LaneQL.createWorker() runs in a Worker (a module Worker in browsers, worker_threads
// in Node): one LaneQL, driven by WorkerRequests; results go back with their buffers transferred.
import { LaneQLError } from './errors.js';
import { LaneQL } from './laneql.js';
import { isNode } from './platform.js';
import type { PreparedColumn } from './columns.js';
import type { CsvOptions, CreateOptions, HitsOptions, TpchOptions } from './laneql.js';
import type { QueryOptions } from './types.js';
import type { WorkerRequest, WorkerResponse } from './worker-protocol.js';

let db: LaneQL | null = null;

function open(): LaneQL {
  if (db === null) throw new LaneQLError('closed: this LaneQL worker was closed');
  return db;
}

async function handle(request: WorkerRequest): Promise<[unknown, Transferable[]]> {
  const a = request.args;
  switch (request.method) {
    case 'create':
      db = await LaneQL.create(a[0] as CreateOptions);
      return [undefined, []];
    case 'registerPrepared':
      open().registerPrepared(a[0] as string, a[1] as PreparedColumn[]);
      return [undefined, []];
    case 'registerCSV':
      return [open().registerCSV(a[0] as string, a[1] as string | Uint8Array, a[2] as CsvOptions | undefined), []];
    case 'generateHits':
      open().generateHits(a[0] as string, a[1] as number, a[2] as number | undefined, a[3] as HitsOptions | undefined);
      return [undefined, []];
    case 'generateTpch':
      return [open().generateTpch(a[0] as number, a[1] as number | undefined, a[2] as TpchOptions | undefined), []];
    case 'query': {
      const raw = open().query(a[0] as string, a[1] as QueryOptions | undefined).raw;
      const transfer: ArrayBuffer[] = [];
      for (const c of raw.columns) {
        transfer.push(c.values);
        if (c.offsets) transfer.push(c.offsets);
        if (c.validity) transfer.push(c.validity);
      }
      return [raw, transfer.filter((b) => b.byteLength > 0)];
    }
    case 'likePrefilterCounts':
      return [open().likePrefilterCounts(a[0] as string, a[1] as string, a[2] as string), []];
    case 'info':
      return [open().info(), []];
    case 'version':
      return [open().version(), []];
    case 'close':
      db?.close();
      db = null;
      return [undefined, []];
  }
}

function reply(post: (message: WorkerResponse, transfer: Transferable[]) => void, request: WorkerRequest): void {
  handle(request).then(
    ([value, transfer]) => post({ id: request.id, ok: true, value }, transfer),
    (error: unknown) => {
      const laneql = error instanceof LaneQLError;
      const message = error instanceof Error ? error.message : String(error);
      post({ id: request.id, ok: false, error: { message, line: laneql ? error.line : undefined, column: laneql ? error.column : undefined, laneql } }, []);
    },
  );
}

if (isNode()) {
  const { parentPort } = await import(/* @vite-ignore */ 'node:worker_threads' as string) as typeof import('node:worker_threads');
  parentPort?.on('message', (request: WorkerRequest) =>
    reply((message, transfer) => parentPort.postMessage(message, transfer as never[]), request),
  );
} else {
  const scope = globalThis as unknown as {
    onmessage: ((event: MessageEvent<WorkerRequest>) => void) | null;
    postMessage(message: unknown, transfer: Transferable[]): void;
  };
  scope.onmessage = (event) => reply((message, transfer) => scope.postMessage(message, transfer), event.data);
}
