// TPC-H through the npm package, as a user runs it: LaneQL.create({ flavour }), the 8 CSV files
// read with registerCSV (their bytes, header and types detected), then the queries with query().
// Writes what it got as JSON for run_tpch_js.py, which checks it against DuckDB:
//
//   node tests/tpch/tpch_npm.mjs --data build/tpch/sf0.01 --query-dir ../shared/tpch/queries \
//     --flavour simd128 --out answers.json [--queries 1,3] [--timeout-ms 300000]
//
// The JSON: { flavour, info, loadMs, tables: { name: { rows, ms, names, types } },
// queries: { "1": { names, types, rows, ms, wallMs } | { error } } }. Values are written the way
// `laneql --format json` writes them, so the checker reads both alike: integers as JSON integers
// (64-bit ones exactly), DOUBLE / FLOAT as numbers with a fraction or exponent (3 as 3.0, so an
// integral double is not taken for an integer), DATE as 'YYYY-MM-DD', TIMESTAMP as
// 'YYYY-MM-DD HH:MM:SS[.ffffff]', NULL as null. Exit status 0 when every table loaded (query
// errors are in the JSON), 2 otherwise.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { LaneQL } from '../../bindings-js/dist/index.js';

const TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'];
const FLOAT_TYPES = new Set(['FLOAT', 'DOUBLE']);
const MS_PER_DAY = 86_400_000;

function isoDate(days) {
  return new Date(days * MS_PER_DAY).toISOString().slice(0, 10);
}

function isoTimestamp(micros) {
  const floorDiv = (a, b) => (a % b < 0n ? a / b - 1n : a / b);
  const seconds = floorDiv(micros, 1_000_000n);
  const fraction = micros - seconds * 1_000_000n;
  const text = new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replace('T', ' ');
  return fraction === 0n ? text : `${text}.${String(fraction).padStart(6, '0')}`;
}

function floatLiteral(v) {
  if (!Number.isFinite(v)) return JSON.stringify(String(v)); // NaN / Infinity: a string, a mismatch
  const text = String(v);
  return /[.e]/.test(text) ? text : `${text}.0`;
}

/** One value as JSON text, by its column's type (see the header). */
function literal(type, value) {
  if (value === null) return 'null';
  if (typeof value === 'bigint') return String(value);
  if (type === 'DATE') return JSON.stringify(isoDate(value));
  if (type === 'TIMESTAMP') return JSON.stringify(isoTimestamp(value));
  if (type === 'TIMESTAMP_S') return JSON.stringify(isoTimestamp(value * 1_000_000n));
  if (type === 'BOOLEAN') return value ? 'true' : 'false';
  if (FLOAT_TYPES.has(type)) return floatLiteral(value);
  return JSON.stringify(value); // integers that fit a number, strings
}

/** The result's rows as a JSON array of arrays (text), read column by column. */
function rowsJson(result) {
  const columns = result.columnTypes.map((type, i) => ({
    type,
    values: result.column(i),
    nulls: result.nullMask(i),
  }));
  const rows = [];
  for (let r = 0; r < result.numRows; r++) {
    const cells = columns.map((c) => literal(c.type, c.nulls?.[r] ? null : c.values[r]));
    rows.push(`[${cells.join(',')}]`);
  }
  return `[${rows.join(',\n')}]`;
}

function parseQueryList(text) {
  const out = new Set();
  for (const piece of text.split(',')) {
    const m = /^\s*(\d+)(?:-(\d+))?\s*$/.exec(piece);
    if (!m) throw new Error(`not a query number or range: ${piece}`);
    for (let n = Number(m[1]); n <= Number(m[2] ?? m[1]); n++) out.add(n);
  }
  return [...out].sort((a, b) => a - b);
}

const { values: args } = parseArgs({
  options: {
    data: { type: 'string' },
    'query-dir': { type: 'string' },
    flavour: { type: 'string' },
    out: { type: 'string' },
    queries: { type: 'string', default: '1-22' },
    'timeout-ms': { type: 'string', default: '300000' },
  },
});
for (const name of ['data', 'query-dir', 'flavour', 'out']) {
  if (!args[name]) {
    console.error(`tpch_npm.mjs: --${name} is required`);
    process.exit(2);
  }
}

let db;
try {
  db = await LaneQL.create({ flavour: args.flavour });
} catch (e) {
  console.error(`tpch_npm.mjs: cannot create a '${args.flavour}' database: ${e.message}`);
  process.exit(2);
}
const parts = []; // the output JSON, as text pieces (rows hold bigints JSON.stringify refuses)
const tables = {};
const loadStart = performance.now();
try {
  for (const table of TABLES) {
    const bytes = readFileSync(join(args.data, `${table}.csv`));
    const start = performance.now();
    const rows = db.registerCSV(table, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length));
    const ms = performance.now() - start;
    const empty = db.query(`SELECT * FROM ${table} LIMIT 0`);
    tables[table] = { rows, ms, names: empty.columnNames, types: empty.columnTypes };
  }
} catch (e) {
  console.error(`tpch_npm.mjs: ${args.flavour}: loading the tables: ${e.message}`);
  process.exit(2);
}
const loadMs = performance.now() - loadStart;

const timeoutMs = Number(args['timeout-ms']);
const answers = [];
for (const n of parseQueryList(args.queries)) {
  const sql = readFileSync(join(args['query-dir'], `q${String(n).padStart(2, '0')}.sql`), 'utf8');
  process.stderr.write(`running q${String(n).padStart(2, '0')}\n`); // where a crash happened
  const start = performance.now();
  let answer;
  try {
    const result = db.query(sql, { timeoutMs });
    const wallMs = performance.now() - start;
    answer =
      `{"names": ${JSON.stringify(result.columnNames)}, "types": ${JSON.stringify(result.columnTypes)}, ` +
      `"ms": ${result.elapsedMs}, "wallMs": ${wallMs}, "rows": ${rowsJson(result)}}`;
  } catch (e) {
    answer = JSON.stringify({ error: `${e.name}: ${e.message}`.split('\n').join(' / ') });
  }
  answers.push(`${JSON.stringify(String(n))}: ${answer}`);
}
parts.push(`"flavour": ${JSON.stringify(args.flavour)}`, `"info": ${JSON.stringify(db.info())}`);
parts.push(`"loadMs": ${loadMs}`, `"tables": ${JSON.stringify(tables)}`);
parts.push(`"queries": {\n${answers.join(',\n')}\n}`);
db.close();
writeFileSync(args.out, `{${parts.join(',\n')}}\n`);
