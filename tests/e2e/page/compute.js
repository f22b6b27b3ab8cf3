// Runs one browser test case with the package as it ships, on the main thread or in a Worker.
import { detectFlavour, LaneQL, wasmSimdSupported } from '../dist/index.js';
import { cancellationFloat64, extremeInt64 } from '../shared/data.js';
import { float64Bits } from '../shared/reference.js';
import { runQueries } from './sql-cases.js';

const THREAD_COUNTS = [1, 2, 3, 4];

/** What the page (or Worker) runs on, as the checks in run.mjs read it. */
function environmentHere() {
  return {
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    hardwareConcurrency: navigator.hardwareConcurrency,
    inWorker: typeof window === 'undefined',
    detectedFlavour: detectFlavour(),
    wasmSimd: wasmSimdSupported(),
  };
}

/** An error as plain data (it may be posted from a Worker). */
function errorOf(error) {
  return { name: error?.name, message: String(error?.message ?? error) };
}

export async function compute(params) {
  const environment = environmentHere();
  let db;
  try {
    db = await LaneQL.create(params.flavour ? { flavour: params.flavour } : {});
  } catch (error) {
    return { environment, error: errorOf(error) };
  }
  try {
    const floats = cancellationFloat64(params.rows, params.seed);
    const ints = extremeInt64(params.rows, params.seed);
    const sumFloat64 = db.sumFloat64(floats);
    return {
      environment,
      info: db.info(),
      sumFloat64Value: sumFloat64,
      sumFloat64: float64Bits(sumFloat64),
      sumInt64: db.sumInt64(ints).toString(),
      sumFloat64ByThreads: THREAD_COUNTS.map((threads) => float64Bits(db.sumFloat64(floats, { threads }))),
      sumInt64ByThreads: THREAD_COUNTS.map((threads) => db.sumInt64(ints, { threads }).toString()),
      sql: await runQueries(db, params.seed),
    };
  } finally {
    db.close();
  }
}

/** The case `where=package-worker`: the package's own Worker API (LaneQL.createWorker). */
export async function computeInPackageWorker(params) {
  const environment = environmentHere();
  let db;
  try {
    db = await LaneQL.createWorker(params.flavour ? { flavour: params.flavour } : {});
  } catch (error) {
    return { environment, error: errorOf(error) };
  }
  try {
    const sql = await runQueries(db, params.seed);
    let queryError;
    try {
      await db.query('SELECT nope FROM hits');
    } catch (error) {
      queryError = { name: error?.name, message: error?.message, line: error?.line, column: error?.column };
    }
    return { environment, info: await db.info(), sql, queryError };
  } finally {
    await db.close();
  }
}
