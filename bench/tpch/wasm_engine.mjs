// One engine of the TPC-H wasm benchmark (bench/tpch/wasm.mjs) in its own Node process, one per
// engine: laneql-wasm (the npm package, bindings-js/dist) or duckdb-wasm (@duckdb/duckdb-wasm's
// blocking Node bundle, from bench/wasm's own npm project). Its own process so that wasm.mjs can
// end a query that runs too long, and so that each wasm module has its own 4 GB and a crash takes
// only that engine down.
//
//   node --no-experimental-fetch wasm_engine.mjs laneql-wasm|duckdb-wasm    (forked by wasm.mjs)
//
// Messages (process.send, advanced serialization: bigints pass):
//   { op: 'load', data, tables, packagePath, threads } -> { ok, info, schema, error?, maxRssMb }
//   { op: 'run', sql, keepAnswer } -> { ms, numRows, names?, types?, rows?, error?, fatal?, maxRssMb }
//   { op: 'check', sql, got, own } (duckdb-wasm) -> { verdict, problem, maxRssMb }
//   { op: 'stats' } -> { maxRssMb }
// A run's time is taken here around the query call alone: laneql's query() (its answer copied
// out of wasm memory) and duckdb-wasm's conn.query() (its answer as an Arrow table).
//
// Answers are normalized as bench/wasm/engine.mjs's are (bench/wasm/answers.mjs).

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { arrowRows, checkWithDuckdbWasm, isFatal, laneqlRows } from '../wasm/answers.mjs';
import { openDuckdbWasm } from '../wasm/duckdb_wasm.mjs';
import { QueryShape } from '../wasm/compare.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// --- A WITH clause in front of the SELECT (q15) --------------------------------------------------

/** Splits `WITH ... SELECT ...` into the WITH clause and the SELECT after it (the first SELECT
 *  outside parentheses and quotes); a plain SELECT has an empty prefix. compare.mjs's QueryShape
 *  reads the SELECT; the window check's SQL gets the prefix back in front. */
export function splitWith(sql) {
  const text = sql.trim();
  if (!/^WITH\b/i.test(text)) return { prefix: '', select: text };
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "'" || ch === '"') {
      let end = i + 1;
      while (end < text.length && !(text[end] === ch && text[end + 1] !== ch)) end += text[end] === ch ? 2 : 1;
      i = end;
    } else if (ch === '(') depth += 1;
    else if (ch === ')') depth -= 1;
    else if (depth === 0 && /^SELECT\b/i.test(text.slice(i, i + 7)) && (i === 0 || !/[A-Za-z0-9_]/.test(text[i - 1]))) {
      return { prefix: text.slice(0, i), select: text.slice(i) };
    }
  }
  throw new Error(`WITH without a SELECT after it: ${text.slice(0, 60)}`);
}

/** compare.mjs's QueryShape of a statement that may start with a WITH clause. */
export function tpchShape(sql) {
  const { prefix, select } = splitWith(sql);
  const shape = new QueryShape(select);
  if (prefix) {
    const full = shape.fullAnswerSql.bind(shape);
    shape.fullAnswerSql = (names) => {
      const r = full(names);
      return { ...r, sql: `${prefix}${r.sql}` };
    };
  }
  return shape;
}

let arrow; // apache-arrow, the one duckdb-wasm uses (bench/wasm/node_modules)

// --- The engines -------------------------------------------------------------------------------

const errorText = (e) => String(e?.message ?? e).split('\n').join(' / ').slice(0, 400);
const maxRssMb = () => Math.round(process.resourceUsage().maxRSS / 1024); // maxRSS is in KB

class LaneqlEngine {
  /** The 8 CSV files' bytes through registerCSV (header and types detected), as
   *  tests/tpch/tpch_npm.mjs does. */
  async load({ packagePath, data, tables, threads }) {
    const { LaneQL } = await import(pathToFileURL(packagePath).href);
    this.db = await LaneQL.create({ threads });
    const info = { ...this.db.info(), loadMs: {}, readMs: {}, rows: {}, via: 'registerCSV of the file bytes (types detected)' };
    const schema = {};
    for (const table of tables) {
      let start = performance.now();
      const bytes = fs.readFileSync(path.join(data, `${table}.csv`));
      info.readMs[table] = performance.now() - start;
      start = performance.now();
      info.rows[table] = this.db.registerCSV(table, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
      info.loadMs[table] = performance.now() - start;
      const empty = this.db.query(`SELECT * FROM ${table} LIMIT 0`);
      schema[table] = empty.columnNames.map((n, i) => [n, empty.columnTypes[i]]);
    }
    return { ok: true, info, schema };
  }

  run(sql, keepAnswer) {
    const start = performance.now();
    const result = this.db.query(sql);
    const ms = performance.now() - start;
    const out = { ms, numRows: result.numRows };
    if (keepAnswer) Object.assign(out, { rows: laneqlRows(result), names: result.columnNames, types: result.columnTypes });
    return out;
  }
}

class DuckdbEngine {
  /** Each CSV file registered by its path (NODE_FS: read from disk as DuckDB asks) and loaded
   *  with CREATE TABLE ... AS SELECT * FROM read_csv(...): DuckDB's own detection and types. */
  async load({ data, tables }) {
    const opened = await openDuckdbWasm();
    const d = opened.duckdb;
    arrow = opened.arrow;
    this.db = opened.db;
    this.conn = opened.conn;
    const info = {
      ...opened.info, loadMs: {}, rows: {},
      via: 'CREATE TABLE AS SELECT * FROM read_csv() of the file (registerFileURL, NODE_FS)',
    };
    const schema = {};
    for (const table of tables) {
      const file = `${table}.csv`;
      this.db.registerFileURL(file, path.resolve(data, file), d.DuckDBDataProtocol.NODE_FS, false);
      const start = performance.now();
      this.conn.query(`CREATE TABLE ${table} AS SELECT * FROM read_csv('${file}')`);
      info.loadMs[table] = performance.now() - start;
      info.rows[table] = Number(this.conn.query(`SELECT count(*) FROM ${table}`).getChildAt(0).get(0));
      schema[table] = this.conn.query(`DESCRIBE ${table}`).toArray().map((r) => [r.column_name, r.column_type]);
    }
    return { ok: true, info, schema };
  }

  run(sql, keepAnswer) {
    const start = performance.now();
    const table = this.conn.query(sql);
    const ms = performance.now() - start;
    const out = { ms, numRows: table.numRows };
    if (keepAnswer) Object.assign(out, arrowRows(arrow, table));
    return out;
  }

  /** Is `got` (laneql-wasm's normalized answer) an answer DuckDB could have given? As
   *  bench/wasm/engine.mjs's check, with the WITH clause of q15 kept in front. */
  async check({ sql, got, own }) {
    return checkWithDuckdbWasm(arrow, this.conn, tpchShape(sql), got, own);
  }
}

// --- The message loop (only when forked as an engine) --------------------------------------------

async function handle(engine, message) {
  switch (message.op) {
    case 'load':
      try {
        return await engine.load(message);
      } catch (e) {
        return { ok: false, fatal: true, error: `load failed: ${errorText(e)}` };
      }
    case 'run':
      try {
        return engine.run(message.sql, message.keepAnswer);
      } catch (e) {
        return { error: errorText(e), fatal: isFatal(e) };
      }
    case 'check':
      if (!engine.check) return { verdict: 'CHECK ERROR', problem: 'this engine does not check' };
      try {
        return await engine.check(message);
      } catch (e) {
        return { verdict: 'CHECK ERROR', problem: errorText(e), fatal: isFatal(e) };
      }
    case 'stats':
      return {};
    default:
      return { error: `unknown op ${message.op}` };
  }
}

const forked = typeof process.send === 'function' && process.argv[1] &&
  fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
if (forked) {
  const kind = process.argv[2];
  const engine = kind === 'laneql-wasm' ? new LaneqlEngine() : kind === 'duckdb-wasm' ? new DuckdbEngine() : null;
  if (!engine) {
    console.error(`wasm_engine.mjs: unknown engine ${kind}`);
    process.exit(2);
  }
  process.on('message', async (message) => {
    const reply = await handle(engine, message);
    process.send({ id: message.id, ...reply, maxRssMb: maxRssMb() });
  });
  // wasm.mjs gone: go too, not left holding gigabytes.
  process.on('disconnect', () => process.exit(0));
  process.send({ ready: true });
}
