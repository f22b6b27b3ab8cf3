// Shared set-up: the flavours Node can load, and one LaneQL per flavour per test file.
import { afterAll, beforeAll } from 'vitest';
import { LaneQL, type CreateOptions, type Flavour } from '../../bindings-js/dist/index.js';

/** Every flavour that runs in Node ('simd128-mt' loads the Node build of the threaded one). */
export const NODE_FLAVOURS: Flavour[] = ['simd128-mt', 'simd128', 'scalar'];

/** Creates a LaneQL before the suite's tests and closes it after them (so no Worker outlives it). */
export function useLaneQL(options: CreateOptions): () => LaneQL {
  let db: LaneQL | undefined;
  beforeAll(async () => {
    db = await LaneQL.create(options);
  });
  afterAll(() => {
    db?.close();
  });
  return () => {
    if (db === undefined) throw new Error('LaneQL was not created');
    return db;
  };
}
