// Plain TypeScript definitions of laneql's sums, written from the documented order alone (see
// kernel/include/laneql/sum.h), to test the wasm kernels against. No imports: the browser test
// (tests/e2e) serves this file, transpiled, to its pages as well.

export const SUM_BLOCK_ROWS = 4096;
export const SUM_ACCUMULATORS = 16;

/**
 * Blocks of 4096 rows; in a block row i goes to accumulator i % 16 (all start at +0.0), in row
 * order; the accumulators fold pairwise, acc[j] += acc[j + w] for w = 8, 4, 2, 1; block sums are
 * added in block order starting from +0.0.
 */
export function referenceSumFloat64(values: ArrayLike<number>): number {
  let total = 0;
  const acc = new Float64Array(SUM_ACCUMULATORS);
  for (let start = 0; start < values.length; start += SUM_BLOCK_ROWS) {
    acc.fill(0);
    const end = Math.min(start + SUM_BLOCK_ROWS, values.length);
    // Blocks start at multiples of 16, so i % 16 counts from the block's first row as well.
    for (let i = start; i < end; i++) acc[i % SUM_ACCUMULATORS]! += values[i]!;
    for (let w = SUM_ACCUMULATORS / 2; w >= 1; w /= 2) {
      for (let j = 0; j < w; j++) acc[j]! += acc[j + w]!;
    }
    total += acc[0]!;
  }
  return total;
}

/** The naive left-to-right sum, to show that a data set is sensitive to the order. */
export function leftToRightSum(values: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < values.length; i++) total += values[i]!;
  return total;
}

/** The exact sum of 64-bit integers (BigInt has no overflow). */
export function referenceSumInt64(values: ArrayLike<bigint>): bigint {
  let total = 0n;
  for (let i = 0; i < values.length; i++) total += values[i]!;
  return total;
}

/** The IEEE-754 bits of a double as 16 hex digits: compares and prints -0, NaN and inf exactly. */
export function float64Bits(x: number): string {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  return view.getBigUint64(0).toString(16).padStart(16, '0');
}

/** Bit-identical doubles, except that every NaN equals every NaN. */
export function sameFloat64(a: number, b: number): boolean {
  return Object.is(a, b) || (Number.isNaN(a) && Number.isNaN(b));
}
