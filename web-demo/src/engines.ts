// The demo's engines: laneql databases, each in its own Worker (LaneQL.createWorker). The main
// one runs the flavour the page supports best (simd128-mt when cross-origin isolated); the race
// starts the other flavours on demand and loads the same data into them.
import { LaneQL, type ColumnsInput, type Flavour, type LaneQLInfo, type LaneQLWorker } from 'laneql';

/** Where the current table came from, kept so that another engine can load the same rows. */
export type DataSource =
  | { kind: 'hits'; table: string; rows: number; seed: number }
  /** TPC-H's 8 tables (generateTpch); `table` is the one the Data panel measures (lineitem). */
  | { kind: 'tpch'; table: string; scaleFactor: number; seed: number }
  | { kind: 'csv'; table: string; fileName: string; bytes: Uint8Array }
  | { kind: 'columns'; table: string; fileName: string; columns: ColumnsInput };

/** Each engine's memory cap: three engines (main, simd128, scalar) must fit in one tab. */
export const MEMORY_LIMIT_MB = 2048;

export interface Engine {
  worker: LaneQLWorker;
  info: LaneQLInfo;
  /** The data this engine holds, or null. */
  source: DataSource | null;
}

/** "simd128-mt · WASM · 5 threads" */
export function describeEngine(info: Pick<LaneQLInfo, 'flavour' | 'target' | 'threads'>): string {
  return `${info.flavour} · ${info.target} · ${info.threads} thread${info.threads === 1 ? '' : 's'}`;
}

async function startEngine(flavour?: Flavour): Promise<Engine> {
  const worker = await LaneQL.createWorker({
    ...(flavour === undefined ? {} : { flavour }),
    memoryLimitMB: MEMORY_LIMIT_MB,
  });
  return { worker, info: await worker.info(), source: null };
}

/** Loads `source` into `engine` (replacing a table of the same name). Returns the rows loaded. */
export async function loadSource(engine: Engine, source: DataSource): Promise<number | undefined> {
  let rows: number | undefined;
  switch (source.kind) {
    case 'hits':
      await engine.worker.generateHits(source.table, source.rows, source.seed);
      rows = source.rows;
      break;
    case 'tpch':
      rows = (await engine.worker.generateTpch(source.scaleFactor, source.seed))[source.table];
      break;
    case 'csv':
      rows = await engine.worker.registerCSV(source.table, source.bytes);
      break;
    case 'columns':
      await engine.worker.register(source.table, source.columns);
      break;
  }
  engine.source = source;
  return rows;
}

export class Engines {
  readonly main: Engine;
  readonly #others = new Map<Flavour, Promise<Engine>>();

  private constructor(main: Engine) {
    this.main = main;
  }

  static async start(): Promise<Engines> {
    return new Engines(await startEngine());
  }

  /** The current data (what the main engine holds). */
  get source(): DataSource | null {
    return this.main.source;
  }

  /** Loads new data into the main engine; the other engines are closed (freeing their copy of
   *  the old data) and start again with the new data when next needed. */
  async load(source: DataSource): Promise<number | undefined> {
    const others = [...this.#others.values()];
    this.#others.clear();
    await Promise.allSettled(others.map(async (engine) => (await engine).worker.close()));
    return loadSource(this.main, source);
  }

  /** An engine of `flavour` holding the current data: the main one if it is that flavour. */
  async engine(flavour: Flavour): Promise<Engine> {
    if (this.main.info.flavour === flavour) return this.main;
    let pending = this.#others.get(flavour);
    if (pending === undefined) {
      pending = startEngine(flavour);
      this.#others.set(flavour, pending);
      pending.catch(() => this.#others.delete(flavour));
    }
    const engine = await pending;
    const source = this.main.source;
    if (source !== null && engine.source !== source) await loadSource(engine, source);
    return engine;
  }
}
