// The messages between LaneQLWorker (worker-proxy.ts) and the Worker it starts (worker-entry.ts).
export type WorkerMethod =
  | 'create'
  | 'registerPrepared'
  | 'registerCSV'
  | 'generateHits'
  | 'generateTpch'
  | 'query'
  | 'likePrefilterCounts'
  | 'info'
  | 'version'
  | 'close';

export interface WorkerRequest {
  id: number;
  method: WorkerMethod;
  args: unknown[];
}

export type WorkerResponse =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: { message: string; line: number | undefined; column: number | undefined; laneql: boolean } };

/** The two kinds of Worker, reduced to what the protocol needs. */
export interface Endpoint {
  post(message: unknown, transfer: Transferable[]): void;
  onMessage(handler: (message: unknown) => void): void;
  onError(handler: (error: unknown) => void): void;
  terminate(): void;
  /** Whether the Worker keeps the host alive: in Node, a referenced Worker keeps the process
   *  running (it is unreferenced while no request waits for it); browsers ignore this. */
  keepAlive(on: boolean): void;
}
