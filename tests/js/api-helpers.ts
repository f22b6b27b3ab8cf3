// Shared helpers of the SQL API tests (tests/js/api-*.test.ts).
import { expect } from 'vitest';
import { LaneQLError, type LaneQL } from '../../bindings-js/dist/index.js';

/** What LaneQL.query() returns (the class itself need not be exported). */
export type QueryResult = ReturnType<LaneQL['query']>;

/** The methods every LaneQL and LaneQLWorker has: enough to check that a database still works. */
interface Answering {
  register(name: string, table: { v: Int32Array }): unknown;
  query(sql: string): QueryResult | Promise<QueryResult>;
}

/** Calls fn, which must throw a LaneQLError, and returns that error for further checks. */
export function catchLaneQLError(fn: () => unknown): LaneQLError {
  let thrown: unknown = undefined;
  let threw = false;
  try {
    fn();
  } catch (error) {
    threw = true;
    thrown = error;
  }
  expect(threw, 'expected a LaneQLError, but nothing was thrown').toBe(true);
  expect(thrown).toBeInstanceOf(LaneQLError);
  return thrown as LaneQLError;
}

/** Awaits a promise that must reject with a LaneQLError, and returns that error. */
export async function rejectionOf(promise: Promise<unknown>): Promise<LaneQLError> {
  let thrown: unknown = undefined;
  let rejected = false;
  try {
    await promise;
  } catch (error) {
    rejected = true;
    thrown = error;
  }
  expect(rejected, 'expected a rejection with a LaneQLError, but it resolved').toBe(true);
  expect(thrown).toBeInstanceOf(LaneQLError);
  return thrown as LaneQLError;
}

let probes = 0;

/** The database still registers a table and answers a query over it (e.g. after an error). */
export async function expectUsable(db: Answering): Promise<void> {
  const name = `usable_probe_${++probes}`;
  await db.register(name, { v: Int32Array.of(1, 2, 3, 4) });
  const result = await db.query(`SELECT SUM(v) AS s, COUNT(*) AS n FROM ${name} WHERE v > 1`);
  expect(result.toArray()).toEqual([{ s: 9n, n: 3n }]);
}

/** A column's values as a plain array (typed arrays compared element by element, -0 and NaN exact). */
export function valuesOf(column: ArrayLike<unknown>): unknown[] {
  return Array.from(column);
}

/** The 1s of a null mask as row numbers ([] for a column without NULLs). */
export function nullRows(result: QueryResult, column: string | number): number[] {
  const mask = result.nullMask(column);
  if (mask === null) return [];
  const rows: number[] = [];
  mask.forEach((bit, row) => {
    if (bit !== 0) rows.push(row);
  });
  return rows;
}

/** Days since 1970-01-01 of a UTC date. */
export function dayOf(year: number, month: number, day: number): number {
  return Date.UTC(year, month - 1, day) / 86_400_000;
}

/** A deterministic pseudo-random generator (mulberry32) for test data. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
