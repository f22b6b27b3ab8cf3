// One engine of the wasm benchmark in its own Node process (run.mjs forks it, one per engine):
// laneql-wasm (the npm package, bindings-js/dist) or duckdb-wasm (@duckdb/duckdb-wasm's blocking
// Node bundle). Its own process so that run.mjs can end a query that runs too long, and so that
// each wasm module has its own 4 GB and a crash takes only that engine down.
//
//   node --no-experimental-fetch engine.mjs laneql-wasm|duckdb-wasm     (messages: see below)
//
// Messages from run.mjs (process.send, advanced serialization: bigints pass):
//   { op: 'load', ... }  -> { ok, info, loadMs, columns, error?, fatal? }
//   { op: 'run', sql, warmup, runs, slowMs } -> { timesMs, numRows, names, types, rows, error?, fatal? }
//   { op: 'check', sql, got: { rows, types } } (duckdb-wasm) -> { verdict, problem, ownRows }
// Timings are taken here, around the query call alone: laneql's query() (its answer copied out of
// wasm memory) and duckdb-wasm's conn.query() (its answer as an Arrow table).

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { arrowRows, checkWithDuckdbWasm, isFatal, laneqlRows } from './answers.mjs';
import { openDuckdbWasm } from './duckdb_wasm.mjs';
import { QueryShape } from './compare.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const kind = process.argv[2];

let arrow; // apache-arrow, the one duckdb-wasm uses (bench/wasm/node_modules)

// --- The engines -------------------------------------------------------------------------------

const errorText = (e) => String(e?.message ?? e).split('\n')[0].slice(0, 300);

class LaneqlEngine {
  /** Data: generateHits(name, rows, seed, { columns }) in wasm; `data: 'arrow'` registers the
   *  Arrow file duckdb-wasm loads instead (the same rows: the native generator's), and so does
   *  'generate' when generateHits refuses (today it refuses 10 M rows: it sizes the whole table,
   *  not the columns asked for). */
  async load({ packagePath, rows, seed, columns, threads, flavour, data, arrowPath }) {
    const { LaneQL } = await import(pathToFileURL(packagePath).href);
    const options = { threads };
    if (flavour) options.flavour = flavour;
    this.db = await LaneQL.create(options);
    const info = this.db.info();
    const start = performance.now();
    let note = '';
    let via = 'generateHits';
    if (data !== 'arrow') {
      try {
        if (columns) this.db.generateHits('hits', rows, seed, { columns });
        else this.db.generateHits('hits', rows, seed);
      } catch (e) {
        const memory = /memory|need about|more than/i.test(String(e?.message));
        const why = memory || isFatal(e)
          ? `does not fit in wasm32 memory (generateHits of ${rows} rows, ${columns ? columns.length : 105} columns: ${errorText(e)})`
          : `generateHits failed: ${errorText(e)}`;
        if (!arrowPath || isFatal(e)) return { ok: false, info, fatal: isFatal(e), error: why };
        note = `generateHits refused (${errorText(e)}), so the same Arrow file as duckdb-wasm's went through register()`;
        via = null;
      }
    }
    if (via === null || data === 'arrow') {
      via = 'register(Arrow)';
      try {
        const require = createRequire(path.join(HERE, 'package.json'));
        const arrowLib = await import(pathToFileURL(require.resolve('apache-arrow')).href);
        const reader = await arrowLib.RecordBatchReader.from(fs.createReadStream(arrowPath));
        const batches = [];
        for await (const batch of reader) batches.push(batch);
        const all = new arrowLib.Table(batches);
        this.db.register('hits', columns ? all.select(columns) : all);
      } catch (e) {
        return { ok: false, info, fatal: isFatal(e), error: `does not fit in wasm32 memory? register(Arrow) failed: ${errorText(e)}` };
      }
    }
    const loadMs = performance.now() - start;
    const loaded = this.db.query('SELECT * FROM hits LIMIT 0').columnNames;
    if (columns && loaded.length !== columns.length) {
      note = `generateHits ignored { columns }: ${loaded.length} columns generated`;
    }
    return { ok: true, info, loadMs, columns: loaded, note, via };
  }

  run(sql) {
    const start = performance.now();
    const result = this.db.query(sql);
    const ms = performance.now() - start;
    return { ms, answer: () => ({ rows: laneqlRows(result), names: result.columnNames, types: result.columnTypes }) };
  }
}

class DuckdbEngine {
  async load({ arrowPath, columns }) {
    const opened = await openDuckdbWasm();
    arrow = opened.arrow;
    this.db = opened.db;
    this.conn = opened.conn;
    const info = {
      ...opened.info,
    };
    const start = performance.now();
    try {
      // The Arrow IPC stream csv_to_arrow.py wrote (every column of the run), a batch at a time
      // (the whole file at 10 M rows would not fit in wasm memory twice), this pass's columns.
      const reader = await arrow.RecordBatchReader.from(fs.createReadStream(arrowPath));
      let first = true;
      let pending = [];
      let pendingRows = 0;
      const flush = () => {
        if (!pending.length) return;
        this.conn.insertArrowTable(new arrow.Table(pending).select(columns), { name: 'hits', create: first });
        first = false;
        pending = [];
        pendingRows = 0;
      };
      for await (const batch of reader) {
        pending.push(batch);
        pendingRows += batch.numRows;
        if (pendingRows >= 500000) flush();
      }
      flush();
    } catch (e) {
      return { ok: false, info, fatal: isFatal(e), error: `load failed: ${errorText(e)}` };
    }
    const loadMs = performance.now() - start;
    const loaded = arrowRows(arrow, this.conn.query('SELECT * FROM hits LIMIT 0')).names;
    return { ok: true, info, loadMs, columns: loaded, note: '' };
  }

  run(sql) {
    const start = performance.now();
    const table = this.conn.query(sql);
    const ms = performance.now() - start;
    return { ms, answer: () => arrowRows(arrow, table) };
  }

  /** Is `got` (laneql-wasm's normalized answer) an answer DuckDB could have given? */
  async check({ sql, got, own }) {
    return checkWithDuckdbWasm(arrow, this.conn, new QueryShape(sql), got, own);
  }
}

// --- The message loop --------------------------------------------------------------------------

const engine = kind === 'laneql-wasm' ? new LaneqlEngine() : kind === 'duckdb-wasm' ? new DuckdbEngine() : null;
if (!engine) {
  console.error(`engine.mjs: unknown engine ${kind}`);
  process.exit(2);
}

async function handle(message) {
  switch (message.op) {
    case 'load':
      try {
        return await engine.load(message);
      } catch (e) {
        return { ok: false, fatal: true, error: `start failed: ${errorText(e)}` };
      }
    case 'run': {
      const timesMs = [];
      let answer = null;
      try {
        for (let i = 0; i < message.warmup + message.runs; i++) {
          const { ms, answer: read } = engine.run(message.sql);
          if (i === 0) answer = read(); // the warm-up's answer is the one checked
          if (i >= message.warmup) timesMs.push(ms);
          else if (ms > message.slowMs) message.runs = Math.min(message.runs, 1);
        }
      } catch (e) {
        return { error: errorText(e), fatal: isFatal(e), timesMs };
      }
      return { timesMs, numRows: answer.rows.length, ...answer };
    }
    case 'check':
      try {
        return await engine.check(message);
      } catch (e) {
        return { verdict: 'CHECK ERROR', problem: errorText(e), fatal: isFatal(e) };
      }
    default:
      return { error: `unknown op ${message.op}` };
  }
}

process.on('message', async (message) => {
  const reply = await handle(message);
  process.send({ id: message.id, ...reply });
});
// run.mjs gone (ended, killed, its output pipe closed): go too, not left holding gigabytes.
process.on('disconnect', () => process.exit(0));
process.send({ ready: true });
