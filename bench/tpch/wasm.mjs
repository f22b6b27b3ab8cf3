#!/usr/bin/env node
// TPC-H's 22 queries in Node: laneql's npm package (wasm) vs @duckdb/duckdb-wasm on the same
// tpchgen-cli CSV files, each engine in its own child process (wasm_engine.mjs), one thread each;
// every laneql-wasm answer checked against duckdb-wasm's (bench/wasm/compare.mjs's rules). Writes
// the numbers as JSON (--out, read by bench/peers/wasm.py's summarize()) and prints a Markdown
// table. See README.md, section "laneql-wasm vs duckdb-wasm (wasm.mjs)".
//
//   node --no-experimental-fetch bench/tpch/wasm.mjs --data build/tpch/sf1 \
//        [--query-dir ../shared/tpch/queries] [--repeat 3] [--out build/bench-tpch/wasm-sf1.json]
//        [--queries 1,3-5] [--timeout-ms 600000] [--threads 1]

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { EngineProcess, ensureNodeModules } from '../wasm/engine_process.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const ENGINE_SCRIPT = path.join(HERE, 'wasm_engine.mjs');
export const ENGINES = ['laneql-wasm', 'duckdb-wasm'];
export const TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'];
const QUERY_COUNT = 22;

export const USAGE = `usage: node --no-experimental-fetch bench/tpch/wasm.mjs --data DIR [options]
  --data DIR          the 8 tpchgen-cli CSV files <table>.csv (tests/tpch/tpch_data.py makes
                      build/tpch/sf<SF>); the scale factor is read from the folder's name
  --query-dir DIR     q01.sql .. q22.sql (default: $LANEQL_TPCH_DIR, else ../shared/tpch/queries
                      next to the checkout)
  --repeat N          timed runs per query and engine, after one warm-up (default 3)
  --queries LIST      1,3-5 (default 1-22)
  --timeout-ms MS     the most one run may take (default 600000); the engine's process is then
                      ended, the query marked timeout, and the engine restarted for the next one
  --threads N         laneql-wasm's threads (default 1; duckdb-wasm's blocking Node bundle has 1)
  --out FILE          write the JSON there (the Markdown table goes to stdout)
  --package PATH      laneql's built npm package (default bindings-js/dist/index.js)`;

export class UsageError extends Error {}

// --- Pure parts (unit-tested in wasm.test.mjs) ----------------------------------------------------

/** 1,3-5 -> [1, 3, 4, 5] (sorted, unique, each in 1..count). */
export function parseQueryList(text, count = QUERY_COUNT) {
  if (text === null || text === undefined) return [...Array(count).keys()].map((i) => i + 1);
  const out = new Set();
  for (const piece of String(text).split(',')) {
    const m = /^\s*(\d+)(?:\s*-\s*(\d+))?\s*$/.exec(piece);
    if (!m) throw new UsageError(`--queries: bad piece '${piece}'`);
    const lo = Number(m[1]);
    const hi = Number(m[2] ?? m[1]);
    if (hi < lo) throw new UsageError(`--queries: empty range ${piece}`);
    for (let q = lo; q <= hi; q++) {
      if (q < 1 || q > count) throw new UsageError(`--queries: ${q} is outside 1-${count}`);
      out.add(q);
    }
  }
  return [...out].sort((x, y) => x - y);
}

/** The default query folder: $LANEQL_TPCH_DIR, else ../shared/tpch/queries next to the checkout. */
export function defaultQueryDir(env = process.env, repo = REPO) {
  if (env.LANEQL_TPCH_DIR) return path.resolve(env.LANEQL_TPCH_DIR);
  return path.resolve(repo, '..', 'shared', 'tpch', 'queries');
}

export function parseArgs(argv, env = process.env) {
  const a = {
    data: null, queryDir: defaultQueryDir(env), repeat: 3, queries: parseQueryList(null), timeoutMs: 600000,
    threads: 1, out: null, package: path.join(REPO, 'bindings-js', 'dist', 'index.js'), help: false,
  };
  const take = (i) => {
    if (i + 1 >= argv.length || argv[i + 1].startsWith('--')) throw new UsageError(`${argv[i]} needs a value`);
    return argv[i + 1];
  };
  const int = (i, min) => {
    const text = take(i);
    const v = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(v) || v < min) throw new UsageError(`${argv[i]}: expected a whole number >= ${min}, got ${text}`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    let arg = argv[i];
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0) { // --name=value
      argv = [...argv.slice(0, i), arg.slice(0, eq), arg.slice(eq + 1), ...argv.slice(i + 1)];
      arg = argv[i];
    }
    switch (arg) {
      case '--data': a.data = path.resolve(take(i)); i++; break;
      case '--query-dir': a.queryDir = path.resolve(take(i)); i++; break;
      case '--repeat': a.repeat = int(i, 1); i++; break;
      case '--queries': a.queries = parseQueryList(take(i)); i++; break;
      case '--timeout-ms': a.timeoutMs = int(i, 1); i++; break;
      case '--threads': a.threads = int(i, 1); i++; break;
      case '--out': a.out = path.resolve(take(i)); i++; break;
      case '--package': a.package = path.resolve(take(i)); i++; break;
      case '-h': case '--help': a.help = true; break;
      default: throw new UsageError(`unknown argument ${arg}`);
    }
  }
  if (!a.help && !a.data) throw new UsageError('--data DIR is required');
  return a;
}

/** The scale factor from the data folder's name (tpch_data.py's sf<SF>): .../sf0.1 -> 0.1. */
export function sfFromFolder(folder) {
  const m = /^sf(\d+(?:\.\d+)?)$/.exec(path.basename(path.resolve(folder)));
  return m ? Number(m[1]) : null;
}

/** The engines in the order query q runs them: rotating from one query to the next. */
export function engineOrder(q, engines = ENGINES) {
  return engines.map((_, i) => engines[(i + q) % engines.length]);
}

export const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
export const geomean = (xs) => Math.exp(xs.reduce((s, x) => s + Math.log(Math.max(x, 1e-6)), 0) / xs.length);
export const fmtMs = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3));
const fmtRatio = (r) => (r >= 10 ? r.toFixed(1) : r.toFixed(2));
const cell = (text) => String(text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** { table: [[name, type], ...] } of both engines -> a list of differences (empty: the same). */
export function compareSchemas(laneql, duckdb, tables = TABLES) {
  const problems = [];
  for (const t of tables) {
    const L = laneql[t] ?? [];
    const D = duckdb[t] ?? [];
    if (L.length !== D.length) problems.push(`${t}: laneql-wasm has ${L.length} columns, duckdb-wasm ${D.length}`);
    for (let i = 0; i < Math.max(L.length, D.length); i++) {
      const [ln, lt] = L[i] ?? ['(none)', '-'];
      const [dn, dt] = D[i] ?? ['(none)', '-'];
      if (ln.toLowerCase() !== dn.toLowerCase() || lt !== dt) problems.push(`${t}.${dn}: laneql-wasm ${ln} ${lt}, duckdb-wasm ${dn} ${dt}`);
    }
  }
  return problems;
}

/** One engine's entry of a result: the timings of its runs, or its error. */
export function engineEntry(timesMs, numRows) {
  return { medianMs: median(timesMs), bestMs: Math.min(...timesMs), numRows, timesMs };
}

/** The geometric means over the queries both engines ran: { n, laneql, duckdb, ratio } or null. */
export function geomeans(results, key = 'medianMs') {
  const both = results.filter((r) => ENGINES.every((e) => r.engines[e] && !r.engines[e].error));
  if (!both.length) return null;
  const g = (e) => geomean(both.map((r) => r.engines[e][key]));
  return { n: both.length, laneql: g('laneql-wasm'), duckdb: g('duckdb-wasm'), ratio: g('laneql-wasm') / g('duckdb-wasm') };
}

/** The short Markdown report of the JSON report. */
export function renderMarkdown(report) {
  const lines = [];
  const sf = report.sf === null || report.sf === undefined ? '?' : report.sf;
  lines.push(`## TPC-H SF ${sf} in Node: laneql-wasm vs duckdb-wasm`, '');
  lines.push(`Median of ${report.repeat} runs after one warm-up, in ms; ratio below 1: laneql-wasm is faster. ` +
    `check: laneql-wasm's answer against duckdb-wasm's (bench/wasm/compare.mjs).`, '');
  lines.push('| q | laneql-wasm ms | duckdb-wasm ms | laneql / duckdb | check |', '|---|---:|---:|---:|---|');
  const ms = (x) => (!x ? '-' : x.error ? (/^timeout/.test(x.error) ? 'timeout' : 'error') : fmtMs(x.medianMs));
  const notes = [];
  for (const r of report.results) {
    const L = r.engines['laneql-wasm'];
    const D = r.engines['duckdb-wasm'];
    const ratio = L && D && !L.error && !D.error ? fmtRatio(L.medianMs / D.medianMs) : '-';
    const check = /^(MISMATCH|CHECK ERROR)/.test(r.check) ? `**${r.check.split(':')[0]}**` : r.check.split(':')[0];
    const qNotes = [...(r.check.includes(':') ? [r.check] : []), ...r.notes];
    for (const e of ENGINES) if (r.engines[e]?.error) qNotes.push(`${e}: ${r.engines[e].error}`);
    if (qNotes.length) notes.push(`- q${r.q}: ${[...new Set(qNotes)].join('; ')}`);
    lines.push(`| ${r.q} | ${ms(L)} | ${ms(D)} | ${ratio} | ${cell(check)} |`);
  }
  for (const [label, key] of [['geomean (median)', 'medianMs'], ['geomean (best)', 'bestMs']]) {
    const g = geomeans(report.results, key);
    if (g) lines.push(`| **${label}** | **${fmtMs(g.laneql)}** | **${fmtMs(g.duckdb)}** | **${fmtRatio(g.ratio)}** | ${g.n} of ${report.results.length} queries (both ran them) |`);
  }
  const okCount = report.results.filter((r) => r.check.startsWith('ok')).length;
  lines.push('', `Answers: ${okCount} of ${report.results.length} checked ok.`);
  if (notes.length) lines.push('', 'Notes:', '', ...notes);
  const L = report.passes?.[0]?.engines?.['laneql-wasm']?.info;
  const D = report.passes?.[0]?.engines?.['duckdb-wasm']?.info;
  const sum = (o) => Object.values(o ?? {}).reduce((s, x) => s + x, 0);
  lines.push('');
  if (L) lines.push(`- laneql-wasm: laneql ${L.version}, flavour ${L.flavour}, ${L.threads} thread(s); load ${(sum(L.loadMs) / 1000).toFixed(1)} s (${L.via}); peak RSS ${report.peakRssMb?.['laneql-wasm'] ?? '?'} MB`);
  if (D) lines.push(`- duckdb-wasm: ${D.package} (DuckDB ${D.duckdb}), ${D.threads} thread(s); load ${(sum(D.loadMs) / 1000).toFixed(1)} s (${D.via}); peak RSS ${report.peakRssMb?.['duckdb-wasm'] ?? '?'} MB`);
  if (report.machine) lines.push(`- machine: ${report.machine.cpu}, ${report.machine.logicalCpus} logical CPUs, Node ${report.machine.node}`);
  return `${lines.join('\n')}\n`;
}

// --- Engines in child processes -------------------------------------------------------------------

const log = (...parts) => console.error(...parts);

function machineInfo() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const m = /^model name\s*:\s*(.*)$/m.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    if (m) cpu = m[1].trim();
  } catch {
    // keep os.cpus()'s
  }
  return {
    cpu, logicalCpus: os.cpus().length, memoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)), node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`, loadAtStart: Number(os.loadavg()[0].toFixed(2)),
    date: new Date().toISOString(),
  };
}

// --- The run ---------------------------------------------------------------------------------------

/** Warm-up (its answer kept) and `repeat` timed runs of one query on one engine. */
async function runQuery(a, e, sql) {
  if (!(await e.ensure())) return { entry: { error: `engine down: ${e.dead}` } };
  const timesMs = [];
  let answer = null;
  for (let i = 0; i <= a.repeat; i++) {
    const reply = await e.request({ op: 'run', sql, keepAnswer: i === 0 }, a.timeoutMs);
    if (reply.error) {
      if (reply.fatal && !reply.timeout) e.stop(); // a trap: restarted before its next query
      const which = i === 0 ? 'warm-up' : `run ${i}`;
      const memory = reply.fatal || /memory/i.test(reply.error);
      const note = memory && reply.maxRssMb ? `${e.kind}: its process's peak RSS was ${reply.maxRssMb} MB at the error` : null;
      return { entry: { error: reply.timeout || reply.crashed ? `${reply.error} (${which})` : reply.error }, note };
    }
    if (i === 0) answer = { rows: reply.rows, names: reply.names, types: reply.types };
    else timesMs.push(reply.ms);
  }
  return { entry: engineEntry(timesMs, answer.rows.length), answer };
}

async function checkAnswer(a, dw, sql, L, D) {
  if (L.error && D.error) return { check: 'not checked: both engines failed' };
  if (L.error) return { check: 'not checked: laneql-wasm error' };
  if (D.error) return { check: 'not checked: duckdb-wasm error' };
  if (!(await dw.ensure())) return { check: `not checked: duckdb-wasm down (${dw.dead})` };
  const c = await dw.request({ op: 'check', sql, got: L.answer, own: D.answer }, Math.max(a.timeoutMs, 600e3));
  if (c.fatal || c.timeout) dw.stop();
  if (c.error) return { check: `not checked: check failed (${c.error})` };
  if (c.verdict === 'MISMATCH') return { check: `MISMATCH: ${c.problem}` };
  if (c.verdict.startsWith('ok')) return { check: c.verdict };
  return { check: `not checked: ${c.verdict}: ${c.problem}` };
}

async function main() {
  let a;
  try {
    a = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`wasm.mjs: ${e.message}\n${USAGE}`);
    process.exit(2);
  }
  if (a.help) {
    console.log(USAGE);
    return;
  }
  for (const t of TABLES) {
    if (!fs.existsSync(path.join(a.data, `${t}.csv`))) throw new Error(`no ${t}.csv in ${a.data} (tests/tpch/tpch_data.py makes it)`);
  }
  const queryFile = (q) => path.join(a.queryDir, `q${String(q).padStart(2, '0')}.sql`);
  for (const q of a.queries) if (!fs.existsSync(queryFile(q))) throw new Error(`no ${queryFile(q)} (--query-dir or LANEQL_TPCH_DIR)`);
  if (!fs.existsSync(a.package)) throw new Error(`no laneql npm package at ${a.package} (make build-wasm build-js, or --package PATH)`);
  ensureNodeModules();
  const machine = machineInfo();
  const sf = sfFromFolder(a.data);

  const engines = {
    'laneql-wasm': new EngineProcess('laneql-wasm', ENGINE_SCRIPT, { packagePath: a.package, data: a.data, tables: TABLES, threads: a.threads }),
    'duckdb-wasm': new EngineProcess('duckdb-wasm', ENGINE_SCRIPT, { data: a.data, tables: TABLES }),
  };
  // One after the other (their loads peak in memory).
  for (const e of Object.values(engines)) {
    log(`==> loading ${e.kind} (SF ${sf ?? '?'}, ${a.data})`);
    const loaded = await e.start();
    if (!loaded.ok) {
      for (const x of Object.values(engines)) x.stop();
      throw new Error(`${e.kind} did not load: ${loaded.error}`);
    }
    const total = Object.values(loaded.info.loadMs).reduce((s, x) => s + x, 0);
    log(`   ${e.kind}: 8 tables in ${(total / 1000).toFixed(1)} s`);
  }
  const typeProblems = compareSchemas(engines['laneql-wasm'].loaded.schema, engines['duckdb-wasm'].loaded.schema);
  if (typeProblems.length) {
    for (const x of Object.values(engines)) x.stop();
    console.error(`wasm.mjs: THE ENGINES READ DIFFERENT COLUMN TYPES from ${a.data}:\n  ${typeProblems.join('\n  ')}`);
    process.exit(1);
  }
  log('   column types: the same in both engines (all 8 tables)');

  const results = [];
  for (const q of a.queries) {
    const sql = fs.readFileSync(queryFile(q), 'utf8');
    const r = { q, engines: {}, check: null, notes: [] };
    const answers = {};
    for (const kind of engineOrder(q)) {
      const { entry, answer, note } = await runQuery(a, engines[kind], sql);
      r.engines[kind] = entry;
      if (note) r.notes.push(note);
      answers[kind] = answer;
    }
    const L = { ...r.engines['laneql-wasm'], answer: answers['laneql-wasm'] };
    const D = { ...r.engines['duckdb-wasm'], answer: answers['duckdb-wasm'] };
    r.check = (await checkAnswer(a, engines['duckdb-wasm'], sql, L, D)).check;
    if (!L.error && !D.error && L.numRows !== D.numRows) r.notes.push(`rows: laneql-wasm ${L.numRows}, duckdb-wasm ${D.numRows}`);
    const show = (x) => (x.error ? `error (${x.error})` : `${fmtMs(x.medianMs)} ms`);
    log(`q${String(q).padStart(2, '0')}: laneql-wasm ${show(r.engines['laneql-wasm'])}, duckdb-wasm ${show(r.engines['duckdb-wasm'])}; ${r.check}`);
    results.push(r);
  }

  // The peaks: each engine's own maxRSS, asked for last (and the peaks of processes ended on the way).
  for (const e of Object.values(engines)) {
    if (e.proc) await e.request({ op: 'stats' }, 60e3);
    e.stop();
  }
  const passInfo = Object.fromEntries(Object.entries(engines).map(([k, e]) => [k, e.loaded
    ? { ok: true, info: e.loaded.info, schema: e.loaded.schema, restarts: e.restarts, ...(e.dead ? { dead: e.dead } : {}) }
    : { ok: false, error: e.dead }]));
  const report = {
    results, passes: [{ engines: passInfo }], machine, sf, repeat: a.repeat, threads: { 'laneql-wasm': a.threads, 'duckdb-wasm': 1 },
    timeoutMs: a.timeoutMs, data: a.data, queryDir: a.queryDir,
    peakRssMb: Object.fromEntries(Object.entries(engines).map(([k, e]) => [k, e.peakRssMb])),
    command: `node --no-experimental-fetch bench/tpch/wasm.mjs ${process.argv.slice(2).join(' ')}`,
  };
  if (a.out) {
    fs.mkdirSync(path.dirname(a.out), { recursive: true });
    fs.writeFileSync(a.out, `${JSON.stringify(report, (_, v) => (typeof v === 'bigint' ? String(v) : v), 1)}\n`);
    log(`==> wrote ${a.out}`);
  }
  process.stdout.write(renderMarkdown(report));
}

const isMain = process.argv[1] && fs.realpathSync(process.argv[1]) === fs.realpathSync(fileURLToPath(import.meta.url));
if (isMain) {
  main().catch((e) => {
    console.error(`wasm.mjs: ${e?.stack ?? e}`);
    process.exit(1);
  });
}
