// The LaneQL class: one loaded wasm module with its options, and argument checking.
import { LaneQLBindings, type LaneQLInfo } from './bindings.js';
import { LaneQLError } from './errors.js';
import { loadModule } from './module.js';
import { detectFlavour, FLAVOURS, flavourUnsupportedReason, isFlavour, type Flavour } from './platform.js';

export interface CreateOptions {
  /** The wasm build to load; default: the fastest this platform runs (see detectFlavour()). */
  flavour?: Flavour;
  /** Threads per call unless a call says otherwise; 'auto' (default): all the module allows. */
  threads?: number | 'auto';
}

export interface SumOptions {
  /** Threads for this call, at least 1; more than the module allows means all it allows. */
  threads?: number;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function checkThreads(threads: unknown): number {
  if (typeof threads !== 'number' || !Number.isInteger(threads) || threads < 1) {
    throw new LaneQLError(`threads must be a positive integer, got ${String(threads)}`);
  }
  return threads;
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

// Lets the package's own tests reach the bindings of an instance (see bindingsOf below).
let bindingsOfInstance: (db: LaneQL) => LaneQLBindings;

export class LaneQL {
  #bindings: LaneQLBindings | null;
  readonly #threads: number;

  private constructor(bindings: LaneQLBindings, threads: number) {
    this.#bindings = bindings;
    this.#threads = threads;
  }

  static {
    bindingsOfInstance = (db) => db.#open();
  }

  /** Loads a wasm flavour; rejects with LaneQLError for an unknown flavour or one this platform cannot run. */
  static async create(options: CreateOptions = {}): Promise<LaneQL> {
    const flavour = options.flavour ?? detectFlavour();
    if (!isFlavour(flavour)) {
      throw new LaneQLError(`unknown flavour '${String(flavour)}'; expected one of ${FLAVOURS.join(', ')}`);
    }
    const unsupported = flavourUnsupportedReason(flavour);
    if (unsupported !== null) throw new LaneQLError(unsupported);
    const threadsOption = options.threads ?? 'auto';
    const threads = threadsOption === 'auto' ? null : checkThreads(threadsOption);

    let bindings: LaneQLBindings;
    try {
      bindings = new LaneQLBindings(await loadModule(flavour));
    } catch (cause) {
      if (cause instanceof LaneQLError) throw cause;
      const reason = cause instanceof Error ? cause.message : String(cause);
      throw new LaneQLError(`cannot load the '${flavour}' wasm module: ${reason}`, { cause });
    }
    const max = bindings.info.threads;
    return new LaneQL(bindings, threads === null ? max : Math.min(threads, max));
  }

  #open(): LaneQLBindings {
    if (this.#bindings === null) throw new LaneQLError('closed: this LaneQL instance was closed');
    return this.#bindings;
  }

  #callThreads(options?: SumOptions): number {
    // Clamped here as well as in C: a huge count would wrap around as a 32-bit argument.
    const requested = options?.threads === undefined ? this.#threads : checkThreads(options.threads);
    return Math.min(requested, this.#open().info.threads);
  }

  /** laneql's version, as compiled into the wasm module. */
  version(): string {
    return this.#open().version();
  }

  info(): LaneQLInfo {
    const info = this.#open().info;
    return { ...info, compiledTargets: [...info.compiledTargets] };
  }

  /** SUM in laneql's fixed order: the same bits for every flavour and thread count. */
  sumFloat64(values: Float64Array | number[], options?: SumOptions): number {
    const bindings = this.#open();
    return bindings.sumFloat64(toFloat64Array(values), this.#callThreads(options));
  }

  /** Exact SUM (no overflow: the result may exceed 64 bits). */
  sumInt64(values: BigInt64Array | bigint[], options?: SumOptions): bigint {
    const bindings = this.#open();
    return bindings.sumInt64(toBigInt64Array(values), this.#callThreads(options));
  }

  /** Ends the module's threads and releases it; later calls throw LaneQLError. Idempotent. */
  close(): void {
    const bindings = this.#bindings;
    this.#bindings = null;
    bindings?.terminateThreads();
  }
}

/** @internal For laneql's tests (not exported by the package entry): the instance's bindings. */
export function bindingsOf(db: LaneQL): LaneQLBindings {
  return bindingsOfInstance(db);
}
