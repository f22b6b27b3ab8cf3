// What the current JavaScript engine can run, and so which wasm flavour to load.

/** The wasm builds of laneql. 'simd128-mt' is the threaded one (a Node or a browser build). */
export type Flavour = 'simd128-mt' | 'simd128' | 'scalar';

export const FLAVOURS: readonly Flavour[] = ['simd128-mt', 'simd128', 'scalar'];

export function isFlavour(value: unknown): value is Flavour {
  return typeof value === 'string' && (FLAVOURS as readonly string[]).includes(value);
}

export function isNode(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: unknown } } }).process;
  return typeof proc?.versions?.node === 'string';
}

// The smallest module that uses SIMD: () -> v128 { i8x16.add(i8x16.splat(1), v128.const 0) }.
// An engine without wasm SIMD rejects it, just as it would reject the simd128 flavours.
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: one type, func () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x1c, 0x01, 0x1a, 0x00, // code section: one body of 26 bytes, no locals
  0x41, 0x01, // i32.const 1
  0xfd, 0x0f, // i8x16.splat
  0xfd, 0x0c, ...new Array<number>(16).fill(0), // v128.const 0
  0xfd, 0x6e, // i8x16.add
  0x0b, // end
]);

let simdSupported: boolean | undefined;

/** Whether this engine runs WebAssembly SIMD (128-bit), tested once by validating a tiny module. */
export function wasmSimdSupported(): boolean {
  if (simdSupported === undefined) {
    try {
      simdSupported = typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
    } catch {
      simdSupported = false;
    }
  }
  return simdSupported;
}

/**
 * Whether the threaded flavour can start here. Node always has worker_threads and shared memory;
 * a browser shares wasm memory with Workers only in a cross-origin isolated page (COOP + COEP).
 */
export function wasmThreadsSupported(): boolean {
  if (isNode()) return true;
  return globalThis.crossOriginIsolated === true && typeof SharedArrayBuffer === 'function';
}

/** Why `flavour` cannot run here, or null when it can. */
export function flavourUnsupportedReason(flavour: Flavour): string | null {
  if (flavour !== 'scalar' && !wasmSimdSupported()) {
    return `flavour '${flavour}' needs WebAssembly SIMD, which this engine lacks`;
  }
  if (flavour === 'simd128-mt' && !wasmThreadsSupported()) {
    return (
      "flavour 'simd128-mt' needs shared memory: serve the page cross-origin isolated " +
      '(Cross-Origin-Opener-Policy: same-origin, Cross-Origin-Embedder-Policy: require-corp)'
    );
  }
  return null;
}

/** The flavour LaneQL.create() picks here: the fastest one this engine can run. */
export function detectFlavour(): Flavour {
  if (!wasmSimdSupported()) return 'scalar';
  return wasmThreadsSupported() ? 'simd128-mt' : 'simd128';
}
