import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaneQL } from '../../bindings-js/dist/index.js';
import { cancellationFloat64, TEST_SIZES, uniformFloat64, wideExponentFloat64 } from './data.js';
import { NODE_FLAVOURS } from './flavours.js';
import { float64Bits } from './reference.js';

describe(`flavours ${NODE_FLAVOURS.join(', ')} agree`, () => {
  const dbs: LaneQL[] = [];
  beforeAll(async () => {
    for (const flavour of NODE_FLAVOURS) dbs.push(await LaneQL.create({ flavour }));
  });
  afterAll(() => {
    for (const db of dbs) db.close();
  });

  it.each(TEST_SIZES)('float64 sums have the same bits, %i rows', (n) => {
    for (const generate of [uniformFloat64, wideExponentFloat64, cancellationFloat64]) {
      const values = generate(n, 4242 + n);
      const bits = dbs.map((db) => float64Bits(db.sumFloat64(values)));
      expect(new Set(bits).size, bits.join(' ')).toBe(1);
    }
  });
});
