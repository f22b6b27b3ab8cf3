// The web demo's three algorithm panels measured in Node, on the package as it ships
// (bindings-js/dist): the race (scalar vs simd128, simd128-mt on 1 vs all threads), the LIKE
// prefilter counts, and small-key GROUP BY through the lookup table vs the hash table. Engines
// take turns per sample; prints each query's median elapsedMs (the engine's own time) per engine.
//   node --no-experimental-fetch bench/wasm/demo-panels.mjs [rows=1000000] [samples=5]
import { LaneQL } from '../../bindings-js/dist/index.js';

const ROWS = Number(process.argv[2] ?? 1_000_000);
const SAMPLES = Number(process.argv[3] ?? 5);
const SEED = 2024;
const COLUMNS = ['URL', 'AdvEngineID', 'RegionID', 'UserID'];
const QUERIES = [
  "SELECT count(*) FROM hits WHERE URL LIKE '%google%'",
  'SELECT AdvEngineID, count(*) FROM hits GROUP BY AdvEngineID',
  'SELECT RegionID, count(DISTINCT UserID) AS u FROM hits GROUP BY RegionID ORDER BY u DESC LIMIT 10',
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dbs = {};
for (const flavour of ['scalar', 'simd128', 'simd128-mt']) {
  dbs[flavour] = await LaneQL.create({ flavour });
  dbs[flavour].generateHits('hits', ROWS, SEED, { columns: COLUMNS });
}
const threads = dbs['simd128-mt'].info().threads;
// Each engine runs a query once and how long it took; lookup vs hash only for the small key.
const contestants = {
  scalar: (q) => dbs.scalar.query(q).elapsedMs,
  simd128: (q) => dbs.simd128.query(q).elapsedMs,
  'simd128-mt 1 thread': (q) => dbs['simd128-mt'].query(q, { threads: 1 }).elapsedMs,
  [`simd128-mt ${threads} threads`]: (q) => dbs['simd128-mt'].query(q).elapsedMs,
  'simd128 hash table': (q) => dbs.simd128.query(q, { smallKeyLookup: false }).elapsedMs,
};
console.log(`${ROWS} rows, seed ${SEED}, median of ${SAMPLES} after a warm-up, ms`);
for (const sql of QUERIES) {
  const names = Object.keys(contestants).filter((n) => !n.includes('hash') || sql.includes('AdvEngineID'));
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (const n of names) contestants[n](sql); // warm-up
  for (let i = 0; i < SAMPLES; i++) for (const n of names) times[n].push(contestants[n](sql));
  console.log(sql);
  for (const n of names) console.log(`  ${n.padEnd(24)} ${median(times[n]).toFixed(2)}`);
}
const counts = dbs.simd128.likePrefilterCounts('hits', 'URL', 'google');
console.log("likePrefilterCounts('hits', 'URL', 'google'):", JSON.stringify(counts));
for (const db of Object.values(dbs)) db.close();
