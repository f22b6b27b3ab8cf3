// duckdb-wasm opened in Node for the benchmarks' engine processes (bench/wasm/engine.mjs,
// bench/tpch/wasm_engine.mjs): its blocking bundle from bench/wasm's own npm project, one
// connection, and what the report says of it.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** { arrow (the apache-arrow module duckdb-wasm uses), db, conn, info: { package, duckdb,
 *  threads, memoryLimit } }. */
export async function openDuckdbWasm() {
  const require = createRequire(path.join(HERE, 'package.json'));
  const arrow = await import(pathToFileURL(require.resolve('apache-arrow')).href);
  const duckdb = await import(pathToFileURL(require.resolve('@duckdb/duckdb-wasm/blocking')).href);
  const d = duckdb.default ?? duckdb;
  const dist = path.dirname(require.resolve('@duckdb/duckdb-wasm/dist/duckdb-mvp.wasm'));
  const bundles = {
    mvp: { mainModule: path.join(dist, 'duckdb-mvp.wasm'), mainWorker: path.join(dist, 'duckdb-node-mvp.worker.cjs') },
    eh: { mainModule: path.join(dist, 'duckdb-eh.wasm'), mainWorker: path.join(dist, 'duckdb-node-eh.worker.cjs') },
  };
  const db = await d.createDuckDB(bundles, new d.VoidLogger(), d.NODE_RUNTIME);
  await db.instantiate();
  const conn = db.connect();
  const setting = (name) => String(conn.query(`SELECT current_setting('${name}') AS v`).getChildAt(0).get(0));
  const pkg = JSON.parse(fs.readFileSync(path.join(dist, '..', 'package.json'), 'utf8'));
  const info = {
    package: `@duckdb/duckdb-wasm ${pkg.version}`, duckdb: db.getVersion(),
    threads: setting('threads'), memoryLimit: setting('memory_limit'),
  };
  return { arrow, duckdb: d, db, conn, info };
}
