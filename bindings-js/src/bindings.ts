// A synchronous wrapper over one loaded wasm module: marshalling of columns and results.
import { LaneQLError } from './errors.js';
import type { LaneQLModule } from './module.js';
import { isFlavour, type Flavour } from './platform.js';

/** What a loaded module reports about itself. */
export interface LaneQLInfo {
  version: string;
  flavour: Flavour;
  /** The Highway target the kernels run on: 'WASM' (SIMD) or 'EMU128' (scalar). */
  target: string;
  compiledTargets: string[];
  /** The most threads one call can use: 1, or the calling thread plus the Worker pool. */
  threads: number;
}

// wasm32 memory ends at 4 GiB less one 64 KiB page. A size past it must be refused here: as a
// size_t argument it would wrap around modulo 2^32 and allocate far too little.
const MAX_WASM_BYTES = 0xffff0000;

function parseInfo(json: string): LaneQLInfo {
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

export class LaneQLBindings {
  readonly info: LaneQLInfo;
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
      new Float64Array(this.#module.HEAPU8.buffer, ptr, values.length).set(values);
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
      new BigInt64Array(this.#module.HEAPU8.buffer, ptr, values.length).set(values);
      this.#module._laneql_sum_i64(ptr, values.length, threads, ptr + outOffset);
      const [low = 0n, high = 0n] = new BigUint64Array(this.#module.HEAPU8.buffer, ptr + outOffset, 2);
      return (BigInt.asIntN(64, high) << 64n) + low;
    } finally {
      this.free(ptr);
    }
  }

  /** Ends the Worker pool of a threaded module (which otherwise keeps Node running). */
  terminateThreads(): void {
    this.#module.PThread?.terminateAllThreads();
  }
}
