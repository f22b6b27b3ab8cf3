import { describe, expect, it } from 'vitest';
import { extremeInt64, INT64_MAX, INT64_MIN, randomInt64, TEST_SIZES } from './data.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';
import { referenceSumInt64 } from './reference.js';

describe.each(NODE_FLAVOURS)('flavour %s: sumInt64', (flavour) => {
  const db = useLaneQL({ flavour });

  it.each(TEST_SIZES)('random full-range data, %i rows, is exact', (n) => {
    for (const seed of [1, 2, 3]) {
      const values = randomInt64(n, seed * 1000 + n);
      expect(db().sumInt64(values)).toBe(referenceSumInt64(values));
    }
  });

  it.each(TEST_SIZES)('extreme data, %i rows, is exact', (n) => {
    for (const bias of [0, 0.5, 1]) {
      const values = extremeInt64(n, n + 17, bias);
      expect(db().sumInt64(values)).toBe(referenceSumInt64(values));
    }
  });

  it('gives sums beyond 64 bits in both directions', () => {
    const n = 100003;
    const max = db().sumInt64(new BigInt64Array(n).fill(INT64_MAX));
    const min = db().sumInt64(new BigInt64Array(n).fill(INT64_MIN));
    expect(max).toBe(BigInt(n) * INT64_MAX);
    expect(min).toBe(BigInt(n) * INT64_MIN);
    expect(max > INT64_MAX).toBe(true);
    expect(min < INT64_MIN).toBe(true);
  });

  it('takes a plain bigint array, and gives 0n for no rows', () => {
    expect(db().sumInt64([])).toBe(0n);
    expect(db().sumInt64([INT64_MAX, INT64_MAX, 2n])).toBe(2n ** 64n);
    expect(db().sumInt64([-1n, 1n, -5n])).toBe(-5n);
  });

  it('gives the same result for every thread count', () => {
    const values = extremeInt64(300007, 99);
    const expected = referenceSumInt64(values);
    for (const threads of [1, 2, 3, 4]) expect(db().sumInt64(values, { threads })).toBe(expected);
  });
});
