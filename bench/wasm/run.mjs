#!/usr/bin/env node
// ClickBench's 43 queries in Node: laneql's npm package (wasm) vs @duckdb/duckdb-wasm on the same
// generated rows, and vs laneql native; a Markdown table of the timings and their ratios, every
// laneql-wasm answer checked against duckdb-wasm's. See README.md.
//
//   node --no-experimental-fetch bench/wasm/run.mjs --rows 1000000 [--threads 1] [--repeat 3]
//        [--queries 1-43] [--out bench/wasm/results/wasm-1m.md]

import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { mutations, rowsMatch } from './compare.mjs';
import { EngineProcess, ensureNodeModules } from './engine_process.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const ENGINES = ['laneql-wasm', 'duckdb-wasm', 'native'];

const USAGE = `usage: node --no-experimental-fetch bench/wasm/run.mjs [options]
  --rows N            rows of the generated hits table (default 1000000)
  --seed S            generator seed (default 1)
  --threads N         laneql-wasm's and native's threads per query (default 1; duckdb-wasm's
                      blocking Node bundle always runs on 1)
  --repeat N          timed runs per query and engine, after one warm-up (default 3)
  --queries LIST      lines of queries.sql, 1-based: 1-43, 3,5,20-25 (default all)
  --engines LIST      of laneql-wasm,duckdb-wasm,native (default all three)
  --out FILE          write the Markdown table there (and the raw numbers to FILE.json)
  --timeout S         seconds one run of one query may take (default 120); an engine past
                      it is ended, marked timeout, and restarted for the next query
  --slow-ms MS        a warm-up slower than this leaves 1 timed run, not --repeat (default 30000)
  --all-columns       load all 105 columns in one pass (default: only the columns the
                      queries name, in passes that fit --budget-mb)
  --budget-mb MB      the most data (estimated) one wasm load may hold (default 1500); the
                      queries are grouped into passes, each loading only its columns
  --flavour F         laneql-wasm flavour (default: the package's pick for Node)
  --laneql-data HOW   generate: generateHits in wasm (default; when it refuses, as it does
                      at 10 M rows today, register() the Arrow file duckdb-wasm loads);
                      arrow: always register() that Arrow file
  --prepare-only      make the data and print the passes, run nothing
  --no-check          skip the answer check (timings only)
  --self-check        also make sure the check rejects wrong variants of each answer
  --keep-csv          keep the generator's CSV in the cache
  --cache DIR         data cache (default build/bench-wasm)
  --laneql PATH       the native laneql program (default build/native/native-cli/laneql)
  --python PATH       Python with duckdb and pyarrow (default .venv/bin/python)
  --package PATH      laneql's built npm package entry (default bindings-js/dist/index.js)
  --clickbench DIR    ClickBench's queries.sql and create.sql (default: $LANEQL_CLICKBENCH_DIR,
                      ../shared/clickbench next to the checkout, /work/shared/clickbench)`;

// --- Arguments -----------------------------------------------------------------------------------

function parseArgs(argv) {
  const a = {
    rows: 1000000, seed: 1, threads: 1, repeat: 3, queries: null, engines: ENGINES, out: null,
    timeout: 120, slowMs: 30000, budgetMB: 1500, allColumns: false, prepareOnly: false, flavour: null, laneqlData: 'generate', check: true, selfCheck: false, keepCsv: false,
    cache: path.join(REPO, 'build', 'bench-wasm'),
    laneql: path.join(REPO, 'build', 'native', 'native-cli', 'laneql'),
    python: path.join(REPO, '.venv', 'bin', 'python'),
    package: path.join(REPO, 'bindings-js', 'dist', 'index.js'),
    clickbench: null,
  };
  const take = (i) => {
    if (i + 1 >= argv.length) fail(`${argv[i]} needs a value`);
    return argv[i + 1];
  };
  const int = (i, min = 1) => {
    const v = Number(take(i));
    if (!Number.isInteger(v) || v < min) fail(`${argv[i]}: expected a whole number >= ${min}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    switch (argv[i]) {
      case '--rows': a.rows = int(i); i++; break;
      case '--seed': a.seed = int(i, 0); i++; break;
      case '--threads': a.threads = int(i); i++; break;
      case '--repeat': a.repeat = int(i); i++; break;
      case '--queries': a.queries = take(i); i++; break;
      case '--engines': a.engines = take(i).split(','); i++; break;
      case '--out': a.out = path.resolve(take(i)); i++; break;
      case '--timeout': a.timeout = int(i); i++; break;
      case '--slow-ms': a.slowMs = int(i, 0); i++; break;
      case '--all-columns': a.allColumns = true; break;
      case '--budget-mb': a.budgetMB = int(i); i++; break;
      case '--flavour': a.flavour = take(i); i++; break;
      case '--laneql-data': a.laneqlData = take(i); i++; break;
      case '--no-check': a.check = false; break;
      case '--prepare-only': a.prepareOnly = true; break;
      case '--self-check': a.selfCheck = true; break;
      case '--keep-csv': a.keepCsv = true; break;
      case '--cache': a.cache = path.resolve(take(i)); i++; break;
      case '--laneql': a.laneql = path.resolve(take(i)); i++; break;
      case '--python': a.python = path.resolve(take(i)); i++; break;
      case '--package': a.package = path.resolve(take(i)); i++; break;
      case '--clickbench': a.clickbench = path.resolve(take(i)); i++; break;
      case '-h': case '--help': console.log(USAGE); process.exit(0); break;
      default: fail(`unknown argument ${argv[i]}`);
    }
  }
  for (const e of a.engines) if (!ENGINES.includes(e)) fail(`unknown engine ${e} (${ENGINES.join(', ')})`);
  if (!['generate', 'arrow'].includes(a.laneqlData)) fail('--laneql-data: generate or arrow');
  return a;
}

function fail(message, code = 2) {
  console.error(`run.mjs: ${message}`);
  if (code === 2) console.error(USAGE);
  process.exit(code);
}

const log = (...parts) => console.error(...parts);

function parseQueryList(text, count) {
  if (!text) return [...Array(count).keys()].map((i) => i + 1);
  const out = new Set();
  for (const piece of text.split(',')) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(piece.trim());
    if (!m) fail(`--queries: bad piece ${piece}`);
    const lo = Number(m[1]);
    const hi = Number(m[2] ?? m[1]);
    for (let q = lo; q <= hi; q++) {
      if (q < 1 || q > count) fail(`--queries: ${q} is outside 1-${count}`);
      out.add(q);
    }
  }
  return [...out].sort((x, y) => x - y);
}

// --- ClickBench's files --------------------------------------------------------------------------

function findClickbench(given) {
  const candidates = [given, process.env.LANEQL_CLICKBENCH_DIR, path.join(path.dirname(REPO), 'shared', 'clickbench'),
    '/work/shared/clickbench'];
  for (const c of candidates) if (c && fs.existsSync(path.join(c, 'queries.sql'))) return c;
  return fail('ClickBench\'s queries.sql not found: pass --clickbench DIR or set LANEQL_CLICKBENCH_DIR', 1);
}

/** [name, type] of every column line of create.sql ('Name TYPE NOT NULL'), DuckDB's type names. */
function hitsSchema(createPath) {
  const text = fs.readFileSync(createPath, 'utf8');
  const names = { TEXT: 'VARCHAR', CHAR: 'VARCHAR', VARCHAR: 'VARCHAR', DATE: 'DATE' };
  const out = [];
  for (const m of text.matchAll(/^\s+([A-Za-z_]\w*)\s+([A-Za-z]+)(?:\(\d+\))?\s+NOT NULL\s*,?\s*$/gm)) {
    out.push([m[1], names[m[2].toUpperCase()] ?? m[2].toUpperCase()]);
  }
  if (!out.length) fail(`no 'Name TYPE NOT NULL' column lines in ${createPath}`, 1);
  return out;
}

/** The schema's columns the queries name (words outside quotes), in the table's order; and
 *  whether any query selects *. */
function usedColumns(queries, schema) {
  const byLower = new Map(schema.map(([n]) => [n.toLowerCase(), n]));
  const used = new Set();
  let star = false;
  for (const sql of queries) {
    const bare = sql.replace(/'(?:[^']|'')*'/g, "''");
    for (const word of bare.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) {
      const name = byLower.get(word.toLowerCase());
      if (name) used.add(name);
    }
    if (/SELECT\s+\*/i.test(bare)) star = true;
  }
  return { columns: schema.map(([n]) => n).filter((n) => used.has(n)), star };
}

// --- Data: made once per (rows, seed, columns) into the cache ------------------------------------

function runChecked(cmd, args, what) {
  log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) fail(`${what} failed (${r.error?.message ?? `exit ${r.status}`})`, 1);
}

function prepareArrowFile(a, columns) {
  fs.mkdirSync(a.cache, { recursive: true });
  const base = path.join(a.cache, `hits-${a.rows}-s${a.seed}`);
  const tag = crypto.createHash('sha1').update(columns.join(',')).digest('hex').slice(0, 8);
  const arrowFile = `${base}-${columns.length}cols-${tag}.arrows`;
  if (!fs.existsSync(arrowFile)) {
    const csv = `${base}.csv`;
    if (!fs.existsSync(csv)) {
      runChecked(a.laneql, ['gen', 'hits', '--rows', String(a.rows), '--seed', String(a.seed), '--out', `${csv}.tmp.csv`], 'laneql gen');
      fs.renameSync(`${csv}.tmp.csv`, csv);
    }
    runChecked(a.python, [path.join(HERE, 'csv_to_arrow.py'), '--csv', csv, '--create', a.createPath,
      '--columns', columns.join(','), '--out', `${arrowFile}.tmp`], 'csv_to_arrow.py');
    fs.renameSync(`${arrowFile}.tmp`, arrowFile);
  }
  return arrowFile;
}

/** The generator's CSV, once the Arrow file is made (unless --keep-csv). */
function removeCsv(a) {
  const csv = path.join(a.cache, `hits-${a.rows}-s${a.seed}.csv`);
  if (!a.keepCsv && fs.existsSync(csv)) fs.rmSync(csv);
}

// --- Native: laneql bench, one query per call ----------------------------------------------------

function runNative(a, laneqlFile, q, sql) {
  const dir = path.join(a.cache, 'tmp');
  fs.mkdirSync(dir, { recursive: true });
  const queryFile = path.join(dir, `q${q}.sql`);
  const jsonFile = path.join(dir, `q${q}.json`);
  fs.writeFileSync(queryFile, `${sql}\n`);
  fs.rmSync(jsonFile, { force: true });
  const args = ['bench', '--queries', queryFile, '--table', `hits=${laneqlFile}`, '--runs', String(a.repeat),
    '--threads', String(a.threads), '--json', jsonFile];
  return new Promise((resolve) => {
    const child = spawn(a.laneql, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), a.timeout * 1000 * (a.repeat + 1));
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal) return resolve({ error: signal === 'SIGKILL' ? `timeout (${a.timeout * (a.repeat + 1)} s)` : `killed by ${signal}` });
      try {
        const r = JSON.parse(fs.readFileSync(jsonFile, 'utf8')).queries[0];
        if (r.error) return resolve({ error: String(r.error).split('\n')[0] });
        resolve({ medianMs: r.median_ms, bestMs: r.min_ms, numRows: r.rows });
      } catch {
        resolve({ error: `laneql bench exit ${code}: ${stderr.trim().split('\n').pop()}` });
      }
    });
  });
}

// --- Statistics and formatting -------------------------------------------------------------------

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const geomean = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(Math.max(x, 1e-6)), 0) / xs.length);
const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const fmtRatio = (r) => (r >= 10 ? r.toFixed(1) : r.toFixed(2));
const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function machineInfo() {
  let cpu = 'unknown';
  try {
    const m = /^model name\s*:\s*(.*)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    cpu = os.cpus()[0]?.model ?? 'unknown';
  }
  return {
    cpu, logicalCpus: os.cpus().length, memoryGiB: (os.totalmem() / 2 ** 30).toFixed(1), node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`, loadAtStart: os.loadavg()[0].toFixed(2),
  };
}

/** A query over every loaded column whose answer must be the same in both wasm engines: the two
 *  got the same rows (the native generator's CSV for duckdb-wasm, generateHits for laneql). */
function fingerprintSql(columns, schema) {
  const types = new Map(schema);
  const items = ['COUNT(*)'];
  for (const c of columns) {
    const t = types.get(c);
    if (t === 'VARCHAR') items.push(`SUM(strlen(${c}))`, `MIN(${c})`, `MAX(${c})`);
    else if (t === 'DATE') items.push(`MIN(${c})`, `MAX(${c})`);
    else if (t === 'TIMESTAMP') items.push(`MIN(${c})`, `MAX(${c})`, `SUM(extract(minute FROM ${c}))`);
    else items.push(`SUM(${c})`, `MIN(${c})`, `MAX(${c})`);
  }
  return `SELECT ${items.join(', ')} FROM hits`;
}

// --- Passes: which columns each wasm load holds ----------------------------------------------------

/** Bytes per row of each column as the wasm engines hold it: the type's width, and for strings
 *  their mean length in the generated data (native laneql over the .laneql) plus a 4-byte offset. */
function columnBytes(a, schema, laneqlFile) {
  const widths = { BIGINT: 8, INTEGER: 4, SMALLINT: 2, DATE: 4, TIMESTAMP: 8 };
  const bytes = new Map(schema.map(([n, t]) => [n, widths[t] ?? 68]));
  const strings = schema.filter(([, t]) => t === 'VARCHAR').map(([n]) => n);
  if (laneqlFile && fs.existsSync(laneqlFile)) {
    const sql = `SELECT ${strings.map((n) => `AVG(strlen(${n}))`).join(', ')} FROM hits`;
    const r = spawnSync(a.laneql, ['-c', sql, '--table', `hits=${laneqlFile}`, '--format', 'csv'], { encoding: 'utf8' });
    const values = r.status === 0 ? r.stdout.trim().split('\n').pop().split(',').map(Number) : [];
    if (values.length === strings.length) strings.forEach((n, i) => bytes.set(n, values[i] + 4));
  }
  return bytes;
}

/** Groups the selected queries into passes whose columns fit the budget (first fit, in query
 *  order). A query whose own columns exceed it gets a pass of its own (and may not fit). */
function planPasses(a, selected, queryColumns, bytes, schemaNames) {
  const budget = a.budgetMB * 1e6;
  const size = (cols) => [...cols].reduce((s, c) => s + bytes.get(c), 0) * a.rows;
  const inOrder = (cols) => schemaNames.filter((n) => cols.has(n));
  if (a.allColumns) return [{ queries: selected, columns: schemaNames, bytes: size(new Set(schemaNames)) }];
  const passes = [];
  for (const q of selected) {
    const cols = queryColumns[q - 1];
    let pass = passes.find((p) => size(new Set([...p.columnSet, ...cols])) <= budget);
    if (!pass) passes.push((pass = { queries: [], columnSet: new Set() }));
    pass.queries.push(q);
    for (const c of cols) pass.columnSet.add(c);
  }
  return passes.map((p) => ({ queries: p.queries, columns: inOrder(p.columnSet), bytes: size(p.columnSet) }));
}

// --- The run -------------------------------------------------------------------------------------

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const clickbench = findClickbench(a.clickbench);
  a.createPath = path.join(clickbench, 'create.sql');
  const allQueries = fs.readFileSync(path.join(clickbench, 'queries.sql'), 'utf8').split('\n').map((l) => l.trim()).filter(Boolean);
  const selected = parseQueryList(a.queries, allQueries.length);
  const schema = hitsSchema(a.createPath);
  const schemaNames = schema.map(([n]) => n);
  const queryColumns = allQueries.map((sql) => new Set(usedColumns([sql], schema).columns));
  for (const e of a.engines) {
    if (e === 'native' && !fs.existsSync(a.laneql)) fail(`no native laneql at ${a.laneql} (make build-native, or --laneql PATH)`, 1);
    if (e === 'laneql-wasm' && !fs.existsSync(a.package)) fail(`no laneql npm package at ${a.package} (make build-wasm build-js, or --package PATH)`, 1);
  }
  if (a.engines.includes('duckdb-wasm')) ensureNodeModules();
  const machine = machineInfo();
  const laneqlFile = fs.existsSync(a.laneql) ? prepareLaneqlFile(a) : null;
  const passes = planPasses(a, selected, queryColumns, columnBytes(a, schema, laneqlFile), schemaNames);
  log(`==> hits: ${a.rows} rows, seed ${a.seed}; ${selected.length} queries in ${passes.length} pass(es) (wasm data budget ${a.budgetMB} MB):`);
  for (const [i, p] of passes.entries()) log(`   pass ${i + 1}: queries ${p.queries.join(',')}: ${p.columns.length} columns, ~${Math.round(p.bytes / 1e6)} MB`);
  let nativeInfo = null;
  if (a.engines.includes('native')) {
    const r = spawnSync(a.laneql, ['info', '--json'], { encoding: 'utf8' });
    try { nativeInfo = JSON.parse(r.stdout); } catch { nativeInfo = null; }
  }

  // One Arrow file with every column a pass needs; each pass loads its columns from it.
  const needed = new Set(passes.flatMap((p) => p.columns));
  const t0 = performance.now();
  const arrowFile = a.engines.includes('duckdb-wasm') || a.laneqlData === 'arrow'
    ? prepareArrowFile(a, schemaNames.filter((n) => needed.has(n))) : null;
  log(`   data ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  removeCsv(a);
  if (a.prepareOnly) return;

  const results = [];
  for (const [i, pass] of passes.entries()) {
    log(`==> pass ${i + 1} of ${passes.length}`);
    const done = await runPass(a, pass, { allQueries, schema, laneqlFile, arrowFile });
    pass.engines = done.engines;
    pass.fingerprint = done.fingerprint;
    results.push(...done.results);
  }
  results.sort((x, y) => x.q - y.q);

  const report = renderReport(a, { results, passes, machine, nativeInfo, schema });
  if (a.out) {
    fs.mkdirSync(path.dirname(a.out), { recursive: true });
    fs.writeFileSync(a.out, report);
    const json = {
      rows: a.rows, seed: a.seed, threads: a.threads, repeat: a.repeat, machine, nativeInfo,
      passes: passes.map((p) => ({ queries: p.queries, columns: p.columns, estimatedBytes: p.bytes, fingerprint: p.fingerprint, engines: p.engines })),
      results,
    };
    fs.writeFileSync(a.out.replace(/\.md$/, '') + '.json', JSON.stringify(json, (_, v) => (typeof v === 'bigint' ? String(v) : v), 1));
    log(`==> wrote ${a.out}`);
  }
  process.stdout.write(report);
}

function prepareLaneqlFile(a) {
  fs.mkdirSync(a.cache, { recursive: true });
  const laneqlFile = path.join(a.cache, `hits-${a.rows}-s${a.seed}.laneql`);
  if (!fs.existsSync(laneqlFile)) {
    runChecked(a.laneql, ['gen', 'hits', '--rows', String(a.rows), '--seed', String(a.seed), '--out', `${laneqlFile}.tmp.laneql`], 'laneql gen');
    fs.renameSync(`${laneqlFile}.tmp.laneql`, laneqlFile);
  }
  return laneqlFile;
}

/** One pass: both wasm engines loaded with the pass's columns, its queries run, engines ended. */
async function runPass(a, pass, { allQueries, schema, laneqlFile, arrowFile }) {
  const columns = pass.columns;

  // Start the wasm engines one after the other (their loads peak in memory).
  const engines = {};
  if (a.engines.includes('laneql-wasm')) {
    engines['laneql-wasm'] = new EngineProcess('laneql-wasm', path.join(HERE, 'engine.mjs'), {
      packagePath: a.package, rows: a.rows, seed: a.seed, columns: a.allColumns ? null : columns, threads: a.threads, flavour: a.flavour,
      data: a.laneqlData, arrowPath: arrowFile,
    });
  }
  if (a.engines.includes('duckdb-wasm')) engines['duckdb-wasm'] = new EngineProcess('duckdb-wasm', path.join(HERE, 'engine.mjs'), { arrowPath: arrowFile, columns });
  for (const e of Object.values(engines)) {
    log(`==> loading ${e.kind}`);
    const loaded = await e.start();
    if (loaded.ok) log(`   ${e.kind}: ${loaded.columns.length} columns in ${(loaded.loadMs / 1000).toFixed(1)} s${loaded.note ? `; ${loaded.note}` : ''}`);
    else log(`   ${e.kind}: ${loaded.error}`);
  }

  // Same data in both wasm engines?
  let fingerprint = 'not checked (needs both wasm engines)';
  const lw = engines['laneql-wasm'];
  const dw = engines['duckdb-wasm'];
  if (lw?.loaded?.ok && dw?.loaded?.ok) {
    const common = lw.loaded.columns.filter((c) => dw.loaded.columns.includes(c));
    const sql = fingerprintSql(common, schema);
    const [x, y] = [await lw.request({ op: 'run', sql, warmup: 1, runs: 0, slowMs: 0 }, 600e3),
      await dw.request({ op: 'run', sql, warmup: 1, runs: 0, slowMs: 0 }, 600e3)];
    if (x.error || y.error) fingerprint = `error: ${x.error ? `laneql-wasm: ${x.error}` : ''} ${y.error ? `duckdb-wasm: ${y.error}` : ''}`.trim();
    else {
      const differ = y.names.filter((_, i) => !rowsMatch([x.rows[0][i]], [y.rows[0][i]]));
      fingerprint = differ.length === 0
        ? `same (${y.names.length} aggregates over the ${common.length} loaded columns: COUNT, SUM/MIN/MAX, SUM(strlen))`
        : `**DIFFERENT** in ${differ.length}: ${differ.slice(0, 6).join(', ')}`;
    }
    log(`   data fingerprint laneql-wasm vs duckdb-wasm: ${fingerprint}`);
  }

  const results = [];
  const order = a.engines;
  for (const q of pass.queries) {
    const sql = allQueries[q - 1];
    const r = { q, sql, engines: {}, check: null, notes: [] };
    const rotated = order.map((_, i) => order[(i + q) % order.length]);
    for (const kind of rotated) {
      if (kind === 'native') {
        r.engines.native = await runNative(a, laneqlFile, q, sql);
        continue;
      }
      const e = engines[kind];
      if (!(await e.ensure())) {
        r.engines[kind] = { error: e.dead };
        continue;
      }
      const reply = await e.request({ op: 'run', sql, warmup: 1, runs: a.repeat, slowMs: a.slowMs }, a.timeout * 1000 * (a.repeat + 1) + 30e3);
      if (reply.fatal && !reply.timeout) e.stop(); // restarted before its next query
      if (reply.error) r.engines[kind] = { error: reply.error };
      else {
        r.engines[kind] = {
          medianMs: median(reply.timesMs), bestMs: Math.min(...reply.timesMs), timesMs: reply.timesMs,
          numRows: reply.numRows, answer: { rows: reply.rows, names: reply.names, types: reply.types },
        };
      }
    }
    // The check: laneql-wasm's answer against duckdb-wasm's.
    const L = r.engines['laneql-wasm'];
    const D = r.engines['duckdb-wasm'];
    const N = r.engines.native;
    if (!a.check) r.check = 'not checked';
    else if (L?.error) r.check = `laneql-wasm error`;
    else if (!L || !D) r.check = 'n/a';
    else if (D.error) r.check = 'not checked (duckdb-wasm error)';
    else if (dw && (await dw.ensure())) {
      const c = await dw.request({ op: 'check', sql, got: L.answer, own: D.answer }, 1800e3);
      if (c.fatal || c.timeout) dw.stop();
      r.check = c.error ? `CHECK ERROR: ${c.error}` : c.verdict;
      if (c.problem) r.notes.push(c.problem);
      if (a.selfCheck && r.check.startsWith('ok') && L.answer.rows.length) {
        for (const [what, rows] of mutations(L.answer.rows)) {
          const w = await dw.request({ op: 'check', sql, got: { ...L.answer, rows }, own: D.answer }, 1800e3);
          if (w.verdict?.startsWith('ok')) {
            r.check = 'CHECK ERROR';
            r.notes.push(`the check accepts a wrong answer (${what})`);
            break;
          }
        }
      }
    } else r.check = 'not checked (duckdb-wasm down)';
    if (N && !N.error && D && !D.error && N.numRows !== D.numRows) {
      r.check = r.check.startsWith('ok') ? 'MISMATCH' : r.check;
      r.notes.push(`native ${N.numRows} rows, duckdb-wasm ${D.numRows}`);
    }
    for (const kind of a.engines) if (r.engines[kind]?.error) r.notes.push(`${kind}: ${r.engines[kind].error}`);
    if (/SELECT\s+\*/i.test(sql) && !a.allColumns) r.notes.push(`* = the ${columns.length} columns loaded in its pass (native: all ${schema.length})`);
    for (const kind of ['laneql-wasm', 'duckdb-wasm']) {
      if (r.engines[kind]?.timesMs && r.engines[kind].timesMs.length < a.repeat) r.notes.push(`${kind}: 1 timed run (warm-up over ${a.slowMs / 1000} s)`);
    }
    const show = (kind) => (r.engines[kind] ? (r.engines[kind].error ? 'error' : `${fmtMs(r.engines[kind].medianMs)} ms`) : '-');
    log(`Q${q}: ${a.engines.map((e) => `${e} ${show(e)}`).join(', ')}; ${r.check}${r.notes.length ? ` (${r.notes.join('; ')})` : ''}`);
    for (const kind of ['laneql-wasm', 'duckdb-wasm']) delete r.engines[kind]?.answer;
    results.push(r);
  }
  for (const e of Object.values(engines)) e.stop();
  const info = Object.fromEntries(Object.entries(engines).map(([k, e]) => [k, e.loaded ? { ...e.loaded, id: undefined, dead: e.dead, restarts: e.restarts } : { dead: e.dead }]));
  return { results, engines: info, fingerprint };
}

function renderReport(a, { results, passes, machine, nativeInfo, schema }) {
  const has = (e) => a.engines.includes(e);
  const lines = [];
  const rowsText = a.rows >= 1e6 && a.rows % 1e6 === 0 ? `${a.rows / 1e6} M` : String(a.rows);
  lines.push(`## ClickBench in Node: laneql-wasm vs duckdb-wasm vs laneql native, ${rowsText} rows`, '');
  lines.push(`Median of ${a.repeat} runs after one warm-up, in ms; engines interleaved query by query. ` +
    `Ratios are of medians: below 1, laneql-wasm is faster. "#" is the line of queries.sql (ClickBench's Q0 is #1). ` +
    `check: laneql-wasm's answer against duckdb-wasm's (integers exact, floats 1e-9 relative; order only where ` +
    `ORDER BY orders; ties at a LIMIT accepted as DuckDB's full ordered answer allows).`, '');
  const head = ['#'];
  if (has('laneql-wasm')) head.push('laneql-wasm ms');
  if (has('duckdb-wasm')) head.push('duckdb-wasm ms');
  if (has('native')) head.push('native ms');
  if (has('laneql-wasm') && has('duckdb-wasm')) head.push('wasm / duckdb-wasm');
  if (has('laneql-wasm') && has('native')) head.push('wasm / native');
  head.push('check');
  lines.push(`| ${head.join(' | ')} |`, `|${head.map((h, i) => (i === 0 || h === 'check' ? '---' : '---:')).join('|')}|`);
  const ms = (r, e) => {
    const x = r.engines[e];
    if (!x) return '-';
    if (x.error) return /timeout/.test(x.error) ? 'timeout' : /does not fit/.test(x.error) ? 'no fit' : 'error';
    return fmtMs(x.medianMs) + (x.timesMs && x.timesMs.length < a.repeat ? '†' : '');
  };
  const ratio = (r, e1, e2) => {
    const x = r.engines[e1];
    const y = r.engines[e2];
    return x && y && !x.error && !y.error ? fmtRatio(x.medianMs / y.medianMs) : '-';
  };
  const footnotes = [];
  for (const r of results) {
    const row = [String(r.q)];
    if (has('laneql-wasm')) row.push(ms(r, 'laneql-wasm'));
    if (has('duckdb-wasm')) row.push(ms(r, 'duckdb-wasm'));
    if (has('native')) row.push(ms(r, 'native'));
    if (has('laneql-wasm') && has('duckdb-wasm')) row.push(ratio(r, 'laneql-wasm', 'duckdb-wasm'));
    if (has('laneql-wasm') && has('native')) row.push(ratio(r, 'laneql-wasm', 'native'));
    let check = r.check.startsWith('MISMATCH') || r.check.startsWith('CHECK ERROR') ? `**${r.check}**` : r.check;
    if (r.notes.length) {
      footnotes.push(`- #${r.q}: ${r.notes.join('; ')}`);
      check += ' (note)';
    }
    lines.push(`| ${row.map(cell).join(' | ')} | ${cell(check)} |`);
  }
  // Geometric means over the queries every engine ran.
  const ok = (r) => a.engines.every((e) => r.engines[e] && !r.engines[e].error);
  const common = results.filter(ok);
  if (common.length) {
    const g = (e, key = 'medianMs') => geomean(common.map((r) => r.engines[e][key]));
    for (const [label, key] of [['geomean (median)', 'medianMs'], ['geomean (best)', 'bestMs']]) {
      const row = [`**${label}**`];
      if (has('laneql-wasm')) row.push(`**${fmtMs(g('laneql-wasm', key))}**`);
      if (has('duckdb-wasm')) row.push(`**${fmtMs(g('duckdb-wasm', key))}**`);
      if (has('native')) row.push(`**${fmtMs(g('native', key))}**`);
      if (has('laneql-wasm') && has('duckdb-wasm')) row.push(`**${fmtRatio(g('laneql-wasm', key) / g('duckdb-wasm', key))}**`);
      if (has('laneql-wasm') && has('native')) row.push(`**${fmtRatio(g('laneql-wasm', key) / g('native', key))}**`);
      row.push(`${common.length} of ${results.length} queries (all engines ran them)`);
      lines.push(`| ${row.join(' | ')} |`);
    }
  }
  const problems = results.filter((r) => /MISMATCH|ERROR|error/.test(r.check));
  lines.push('', `Answers: ${results.filter((r) => r.check.startsWith('ok')).length} of ${results.length} checked ok` +
    (problems.length ? `; not ok: ${problems.map((r) => `#${r.q} (${r.check})`).join(', ')}` : '') + '.');
  if (footnotes.length) lines.push('', 'Notes:', '', ...footnotes);
  if (results.some((r) => Object.values(r.engines).some((x) => x.timesMs && x.timesMs.length < a.repeat))) {
    lines.push('', `† one timed run only: the warm-up took over ${a.slowMs / 1000} s.`);
  }
  // Set-up.
  const first = (kind) => passes.map((p) => p.engines?.[kind]).find((x) => x?.ok);
  const L = first('laneql-wasm');
  const D = first('duckdb-wasm');
  lines.push('', '### Set-up', '');
  lines.push(`- machine: ${machine.cpu}, ${machine.logicalCpus} logical CPUs, ${machine.memoryGiB} GiB; ${machine.platform}; Node ${machine.node}; ` +
    `1-minute load average ${machine.loadAtStart} at the start, ${os.loadavg()[0].toFixed(2)} at the end`);
  lines.push(`- data: laneql's hits generator, ${a.rows} rows, seed ${a.seed}. The wasm engines load only the columns their queries name` +
    (a.allColumns ? ' — here all of them (--all-columns)' : `, in ${passes.length} pass(es) of at most ~${a.budgetMB} MB of column data each (estimated; wasm32 has 4 GB in all)`) + ':');
  for (const [i, p] of passes.entries()) {
    const load = (kind) => {
      const x = p.engines?.[kind];
      if (!x) return null;
      if (!x.ok) return `${kind} **${x.error ?? x.dead}**`;
      return `${kind} ${(x.loadMs / 1000).toFixed(1)} s${x.via ? ` by ${x.via}` : ''}${x.note ? ` (${x.note})` : ''}`;
    };
    const loads = ['laneql-wasm', 'duckdb-wasm'].map(load).filter(Boolean).join(', ');
    lines.push(`  - pass ${i + 1}: #${p.queries.join(',')}: ${p.columns.length} columns, ~${Math.round(p.bytes / 1e6)} MB (${p.columns.join(', ')}); load: ${loads}; same data in both wasm engines: ${p.fingerprint}`);
  }
  if (has('laneql-wasm')) {
    lines.push(L
      ? `- laneql-wasm: npm package laneql ${L.info.version}, flavour ${L.info.flavour} (target ${L.info.target}), ${L.info.threads} thread(s), memory limit ${L.info.memoryLimitMB} MB; ${a.laneqlData === 'arrow' ? 'data: register() of the Arrow file duckdb-wasm loads (--laneql-data arrow)' : 'data made in wasm by generateHits(name, rows, seed, { columns }) where it can (see the passes)'}`
      : '- laneql-wasm: did not load (see the passes)');
  }
  if (has('duckdb-wasm')) {
    lines.push(D
      ? `- duckdb-wasm: ${D.info.package} (DuckDB ${D.info.duckdb}), the blocking Node bundle: ${D.info.threads} thread, memory_limit ${D.info.memoryLimit}; data: the native generator's CSV → Arrow IPC (Python duckdb, create.sql's types) → insertArrowTable (not Parquet: the npm duckdb-wasm fetches its parquet extension online)`
      : '- duckdb-wasm: did not load (see the passes)');
  }
  if (has('native')) {
    lines.push(`- native: laneql ${nativeInfo?.version ?? '?'} \`laneql bench --threads ${a.threads}\` on the generated .laneql file (all ${schema.length} columns, mapped), target ${nativeInfo?.dispatched_target ?? '?'}; one process per query, its own warm-up and ${a.repeat} runs`);
  }
  lines.push(`- threads: laneql-wasm and native at ${a.threads}, duckdb-wasm at 1 (its blocking Node bundle has no threads)${a.threads === 1 ? ': a one-thread comparison' : ''}.`);
  lines.push(`- queries: ClickBench's queries.sql as is for all three (laneql's length() counts code points as DuckDB's does).`);
  lines.push(`- command: \`node --no-experimental-fetch bench/wasm/run.mjs ${process.argv.slice(2).join(' ')}\`; ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`);
  return `${lines.join('\n')}\n`;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
