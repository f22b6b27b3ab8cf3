// Deterministic test columns from a seeded PRNG, the same in Node and in the browser test (which
// serves this file, transpiled, to its pages). No imports.

const MASK64 = (1n << 64n) - 1n;

/** SplitMix64: a tiny, well-mixed 64-bit generator; BigInt keeps it exact everywhere. */
export class SplitMix64 {
  #state: bigint;

  constructor(seed: number | bigint) {
    this.#state = BigInt(seed) & MASK64;
  }

  /** The next value as an unsigned 64-bit bigint. */
  nextU64(): bigint {
    this.#state = (this.#state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = this.#state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  }

  /** A signed 64-bit value, uniform over the whole int64 range. */
  nextI64(): bigint {
    return BigInt.asIntN(64, this.nextU64());
  }

  /** A double uniform in [0, 1), from the top 53 bits. */
  nextUnit(): number {
    return Number(this.nextU64() >> 11n) / 2 ** 53;
  }

  /** An integer uniform in [0, n) for n < 2^32. */
  nextBelow(n: number): number {
    return Math.floor(this.nextUnit() * n);
  }
}

/** Uniform in [-1, 1). */
export function uniformFloat64(n: number, seed: number): Float64Array {
  const rng = new SplitMix64(seed);
  return Float64Array.from({ length: n }, () => rng.nextUnit() * 2 - 1);
}

/** Random signs and magnitudes from 2^-300 to 2^300: every addition rounds differently. */
export function wideExponentFloat64(n: number, seed: number): Float64Array {
  const rng = new SplitMix64(seed);
  return Float64Array.from({ length: n }, () => {
    const sign = rng.nextBelow(2) === 0 ? 1 : -1;
    return sign * (1 + rng.nextUnit()) * 2 ** (rng.nextBelow(601) - 300);
  });
}

/**
 * Values in [0, 1) between ±1e16 (whose ulp is 2) of alternating sign, so the big ones cancel:
 * which small values are rounded away next to a big one depends on the summation order.
 */
export function cancellationFloat64(n: number, seed: number): Float64Array {
  const rng = new SplitMix64(seed);
  let bigSign = 1;
  return Float64Array.from({ length: n }, () => {
    if (rng.nextBelow(4) !== 0) return rng.nextUnit();
    bigSign = -bigSign;
    return bigSign * 1e16;
  });
}

/** Uniform over the whole int64 range. */
export function randomInt64(n: number, seed: number): BigInt64Array {
  const rng = new SplitMix64(seed);
  return BigInt64Array.from({ length: n }, () => rng.nextI64());
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** Mostly INT64_MAX or INT64_MIN (by `bias`), so partial sums leave 64 bits in both directions. */
export function extremeInt64(n: number, seed: number, bias = 0.5): BigInt64Array {
  const rng = new SplitMix64(seed);
  return BigInt64Array.from({ length: n }, () => {
    const u = rng.nextUnit();
    if (u < bias * 0.9) return INT64_MAX;
    if (u < 0.9) return INT64_MIN;
    return rng.nextI64();
  });
}

/** The sizes every sum is tested on: around the 16 accumulators and the 4096-row blocks. */
export const TEST_SIZES = [0, 1, 2, 3, 15, 16, 17, 31, 33, 4095, 4096, 4097, 8193, 100003] as const;
