import { describe, expect, it } from 'vitest';
import {
  cancellationFloat64,
  TEST_SIZES,
  uniformFloat64,
  wideExponentFloat64,
} from './data.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';
import { float64Bits, leftToRightSum, referenceSumFloat64, sameFloat64 } from './reference.js';

const DATA_SETS = {
  uniform: uniformFloat64,
  'wide exponent': wideExponentFloat64,
  cancellation: cancellationFloat64,
} as const;

// Compares the bits (with every NaN equal), and prints them when they differ.
function expectSameFloat64(actual: number, expected: number): void {
  if (!sameFloat64(actual, expected)) {
    expect(`${actual} (${float64Bits(actual)})`).toBe(`${expected} (${float64Bits(expected)})`);
  }
}

describe('the float64 test data', () => {
  it('is order-sensitive: left-to-right summing differs from laneql order', () => {
    const values = cancellationFloat64(100003, 7);
    const reference = referenceSumFloat64(values);
    expect(Number.isFinite(reference)).toBe(true);
    expect(leftToRightSum(values)).not.toBe(reference);
  });
});

describe.each(NODE_FLAVOURS)('flavour %s: sumFloat64', (flavour) => {
  const db = useLaneQL({ flavour });

  for (const [name, generate] of Object.entries(DATA_SETS)) {
    it.each(TEST_SIZES)(`${name} data, %i rows, is bit-identical to the reference`, (n) => {
      for (const seed of [1, 2, 3]) {
        const values = generate(n, seed * 1000 + n);
        expectSameFloat64(db().sumFloat64(values), referenceSumFloat64(values));
      }
    });
  }

  it('takes a plain number array', () => {
    const values = Array.from(uniformFloat64(5000, 11));
    expectSameFloat64(db().sumFloat64(values), referenceSumFloat64(values));
  });

  it('gives +0 for no rows and for rows of -0', () => {
    expect(Object.is(db().sumFloat64([]), 0)).toBe(true);
    expect(Object.is(db().sumFloat64(new Float64Array(0)), 0)).toBe(true);
    expect(Object.is(db().sumFloat64(new Float64Array(100).fill(-0)), 0)).toBe(true);
    expect(Object.is(db().sumFloat64([-0]), 0)).toBe(true);
  });

  it('propagates NaN from any row', () => {
    for (const at of [0, 1, 15, 16, 4095, 4096, 9999]) {
      const values = uniformFloat64(10000, at);
      values[at] = NaN;
      expect(db().sumFloat64(values)).toBeNaN();
    }
  });

  it('handles infinities and overflow', () => {
    expect(db().sumFloat64([1, Infinity, 2])).toBe(Infinity);
    expect(db().sumFloat64([1, -Infinity, 2])).toBe(-Infinity);
    expect(db().sumFloat64([Infinity, -Infinity])).toBeNaN();
    // In different blocks, so it is the block sums that meet.
    const apart = new Float64Array(5000);
    apart[0] = Infinity;
    apart[4999] = -Infinity;
    expect(db().sumFloat64(apart)).toBeNaN();
    const max = Number.MAX_VALUE;
    expect(db().sumFloat64(new Float64Array(64).fill(max))).toBe(Infinity);
    expect(db().sumFloat64(new Float64Array(64).fill(-max))).toBe(-Infinity);
    expect(db().sumFloat64(new Float64Array(10000).fill(max))).toBe(Infinity);
  });
});

describe('flavour simd128-mt: every thread count gives the same bits', () => {
  const db = useLaneQL({ flavour: 'simd128-mt' });

  it.each([1, 2, 3, 4])('threads %i', (threads) => {
    for (const [name, generate] of Object.entries(DATA_SETS)) {
      for (const n of [4097, 8193, 100003, 300007]) {
        const values = generate(n, n + threads);
        const expected = referenceSumFloat64(values);
        expect.soft(sameFloat64(db().sumFloat64(values, { threads }), expected), `${name} ${n}`).toBe(true);
      }
    }
  });

  it('defaults to all threads and accepts more than it has', () => {
    const values = cancellationFloat64(200000, 5);
    const expected = referenceSumFloat64(values);
    expectSameFloat64(db().sumFloat64(values), expected);
    expectSameFloat64(db().sumFloat64(values, { threads: 1000 }), expected);
  });
});
