// The web demo end to end: the built page (web-demo/dist) served twice by its own server, cross-
// origin isolated and plain, driven through its UI in headless Chromium (Debian's). It generates
// the same hits rows as the native `laneql`, runs presets and checks their answers against the
// native CLI's JSON, runs the race, LIKE and small-key panels, generates TPC-H and checks a join
// query and the join panel against the native answer and profile (demo-tpch.mjs), marks an error, checks the layout
// at 1280×800 and 390×844 and saves screenshots to tests/e2e/artifacts/. Prints PASS/FAIL lines,
// then "N passed, M failed"; exits 1 on any failure; a global deadline ends it whatever happens.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startDemoServer } from '../../web-demo/scripts/serve.mjs';
import { checkTpchJoin } from './demo-tpch.mjs';
import { Checks, closeBrowser, launchChromium } from './harness.mjs';

const DEADLINE_MS = 120_000;
const STEP_TIMEOUT_MS = 40_000;
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DEMO_DIST = `${ROOT}web-demo/dist/`;
const LANEQL = process.env.LANEQL ?? `${ROOT}build/native/native-cli/laneql`;
const ARTIFACTS = new URL('./artifacts/', import.meta.url);
// Not a multiple of the 16,384-row batch, so the last morsel is a partial one.
const ROWS = 100003;
const SEED = 2024;
// Presets whose answers are checked against the native engine: floats and HUGEINT, COUNT
// DISTINCT per group, and a top-N over strings and timestamps.
// SUM / AVG last: the plain select of top-N counts no bytes in its profile, the others do.
const CHECKED_PRESETS = ['top-N ORDER BY', 'GROUP BY RegionID', 'SUM / AVG'];
const run = promisify(execFile);

const checks = new Checks();
const check = checks.check.bind(checks);

// JSON.parse would round integers beyond 2^53 (SUM gives 128-bit ones): quote long integer
// literals first, so they compare as exact decimal strings.
function parseExactJson(text) {
  return JSON.parse(text.replace(/"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g,
    (token) => (token.startsWith('"') || !/^-?\d{16,}$/.test(token) ? token : `"${token}"`)));
}

/** The native engine's answer: { columns, rows } from `laneql --format json`. */
async function nativeAnswer(sql) {
  const { stdout } = await run(LANEQL, ['--rows', String(ROWS), '--seed', String(SEED), '--format', 'json', '-c', sql],
    { timeout: 30_000, maxBuffer: 64 << 20 });
  return parseAnswer(stdout);
}

/** `laneql --format json`'s output as { columns, rows }. */
function parseAnswer(stdout) {
  const objects = parseExactJson(stdout);
  const columns = objects.length > 0 ? Object.keys(objects[0]) : [];
  return { columns, rows: objects.map((o) => columns.map((c) => o[c])) };
}

function sameCell(type, mine, theirs) {
  if (mine === null || theirs === null) return mine === theirs;
  // DECIMAL: the page shows its exact text ('196319.9290'), the CLI's JSON a number.
  if (type.startsWith('DECIMAL(')) return Number(mine) === Number(theirs);
  if (type === 'FLOAT' || type === 'DOUBLE') {
    const a = Number(mine);
    const b = Number(theirs);
    return a === b || Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(a), Math.abs(b));
  }
  return String(mine) === String(theirs); // integers (exact decimal strings), strings, dates
}

/** Where the page's result differs from the native one, or null. */
function difference(grid, native) {
  if (grid.numRows !== native.rows.length) return `${grid.numRows} rows, native ${native.rows.length}`;
  if (JSON.stringify(grid.columns) !== JSON.stringify(native.columns)) {
    return `columns ${JSON.stringify(grid.columns)}, native ${JSON.stringify(native.columns)}`;
  }
  for (let r = 0; r < grid.rows.length; r++) {
    for (let c = 0; c < grid.columns.length; c++) {
      if (!sameCell(grid.types[c], grid.rows[r][c], native.rows[r][c])) {
        return `row ${r} ${grid.columns[c]}: ${JSON.stringify(grid.rows[r][c])} vs native ${JSON.stringify(native.rows[r][c])}`;
      }
    }
  }
  return null;
}

/** Clicks `button` and waits until `panel` leaves the busy state it enters. */
async function clickAndSettle(page, panel, click) {
  await page.locator(panel).evaluate((el) => (el.dataset.state = 'idle'));
  await click();
  await page.waitForFunction((selector) => {
    const state = document.querySelector(selector)?.dataset.state;
    return state === 'done' || state === 'error';
  }, panel, { timeout: STEP_TIMEOUT_MS });
  return page.locator(panel).getAttribute('data-state');
}

async function checkPresets(page, name) {
  for (const label of CHECKED_PRESETS) {
    const state = await clickAndSettle(page, '#query-panel', () =>
      page.getByRole('button', { name: label, exact: true }).click());
    const sql = await page.locator('#sql-editor').inputValue();
    const grid = JSON.parse((await page.locator('#result-json').textContent()) || 'null');
    if (state !== 'done' || grid === null) {
      check(`${name}: preset '${label}' runs`, false, await page.locator('#sql-error').textContent());
      continue;
    }
    const diff = difference(grid, await nativeAnswer(sql));
    check(`${name}: preset '${label}' equals the native engine (${grid.numRows} rows)`, diff === null, diff ?? '');
  }
  const stats = await page.locator('#query-stats').evaluate((el) => ({ ...el.dataset }));
  check(`${name}: time, rows and bytes shown for the last query`,
    Number(stats.ms) > 0 && Number(stats.rows) === ROWS && Number(stats.bytes) > 0, JSON.stringify(stats));
  const spans = Number(await page.locator('#timeline').getAttribute('data-spans'));
  check(`${name}: the timeline draws the profile's spans`, spans > 0, `spans ${spans}`);
}

async function checkError(page, name) {
  const editor = page.locator('#sql-editor');
  await editor.fill('SELECT RegionID,\n  nope\nFROM hits');
  const state = await clickAndSettle(page, '#query-panel', () => editor.press('Control+Enter'));
  const box = page.locator('#sql-error');
  const where = await box.evaluate((el) => ({ line: el.dataset.line, column: el.dataset.column, hidden: el.hidden }));
  const mark = await page.locator('[data-testid="sql-error-mark"]').textContent().catch(() => null);
  check(`${name}: Ctrl+Enter runs a bad query; its error is marked at line 2, column 3`,
    state === 'error' && !where.hidden && where.line === '2' && where.column === '3' && mark === 'n',
    `${state} ${JSON.stringify(where)} mark ${JSON.stringify(mark)}: ${await box.textContent()}`);
}

async function checkRace(page, name, isolated) {
  // The race takes the editor's query: LIKE, where wasm SIMD's prefilter counts.
  await page.locator('#sql-editor').fill("SELECT COUNT(*) FROM hits WHERE URL LIKE '%google%';");
  await page.locator('#race-runs').selectOption('3');
  const state = await clickAndSettle(page, '#race-panel', () => page.locator('#race-button').click());
  const entries = JSON.parse((await page.locator('#race-bars').getAttribute('data-entries')) || '[]');
  const want = isolated ? ['scalar', 'simd128', 'simd128-mt', 'simd128-mt'] : ['scalar', 'simd128'];
  check(`${name}: the race runs ${want.join(', ')}`,
    state === 'done' && JSON.stringify(entries.map((e) => e.flavour)) === JSON.stringify(want), JSON.stringify(entries));
  check(`${name}: race medians are positive, targets right, answers equal`,
    entries.length > 0 && entries.every((e) => e.medianMs > 0 && Number.isFinite(e.medianMs) && e.sameAnswer &&
      e.target === (e.flavour === 'scalar' ? 'EMU128' : 'WASM')), JSON.stringify(entries));
  if (isolated) {
    check(`${name}: the threaded engine races on 1 and on N > 1 threads`,
      entries[2]?.threads === 1 && entries[3]?.threads > 1, JSON.stringify(entries.map((e) => e.threads)));
  }
}

async function checkLike(page, name) {
  const state = await clickAndSettle(page, '#like-panel', () => page.locator('#like-button').click());
  const outcome = JSON.parse((await page.locator('#like-json').textContent()) || 'null');
  const c = outcome?.counts;
  const native = await nativeAnswer("SELECT count(*) FROM hits WHERE URL LIKE '%google%'");
  check(`${name}: LIKE counts: verified ≤ twoByte ≤ firstByte ≤ positions, matchingRows ≤ verified`,
    state === 'done' && c && c.verified <= c.twoByte && c.twoByte <= c.firstByte && c.firstByte <= c.positions &&
      c.matchingRows <= c.verified && c.positions > 0 && c.twoByte < c.firstByte, JSON.stringify(outcome));
  check(`${name}: LIKE matchingRows equals SQL's count, here and native (${native.rows[0]?.[0]})`,
    c && c.matchingRows === outcome.sqlCount && String(c.matchingRows) === String(native.rows[0]?.[0]), JSON.stringify(outcome));
}

async function checkSmallKey(page, name) {
  await page.locator('#small-key-runs').selectOption('5');
  const state = await clickAndSettle(page, '#small-key-panel', () => page.locator('#small-key-button').click());
  const outcome = JSON.parse((await page.locator('#small-key-check').getAttribute('data-outcome')) || 'null');
  check(`${name}: small-key GROUP BY: both tables timed, same groups`,
    state === 'done' && outcome?.sameResult === true && outcome.lookupMs > 0 && outcome.hashMs > 0 && outcome.groups > 1,
    JSON.stringify(outcome));
}

// A CSV and a Parquet file (written by the .venv's pyarrow) through the file input: the same
// small table, NULLs, a Cyrillic string, a date and a microsecond timestamp; the answer to one
// query over each must be the same known row.
const FILE_SQL = (table) =>
  `SELECT count(*) AS n, count(city) AS c, sum(id) AS s, max(city) AS m, min(day) AS d, max(ts) AS t, sum(amount) AS a FROM ${table}`;
const FILE_ANSWER = ['4', '3', '10', 'Москва', '2013-07-01', '2013-07-15 10:11:12.123456', '21.75'];
const FILE_CSV = 'id,city,amount,day,ts\n1,Berlin,9.5,2013-07-01,2013-07-02 00:00:00\n2,,12.25,2013-07-03,' +
  '2013-07-15 10:11:12.123456\n3,Москва,,2013-07-02,2013-07-01 01:02:03\n4,Paris,0,2013-07-09,2013-07-04 05:06:07\n';
const PARQUET_SCRIPT = `
import sys, datetime as dt, pyarrow as pa, pyarrow.parquet as pq
t = pa.table({
  'id': pa.array([1, 2, 3, 4], pa.int64()),
  'city': pa.array(['Berlin', None, 'Москва', 'Paris']),
  'amount': pa.array([9.5, 12.25, None, 0.0]),
  'day': pa.array([dt.date(2013, 7, 1), dt.date(2013, 7, 3), dt.date(2013, 7, 2), dt.date(2013, 7, 9)]),
  'ts': pa.array([dt.datetime(2013, 7, 2), dt.datetime(2013, 7, 15, 10, 11, 12, 123456),
                  dt.datetime(2013, 7, 1, 1, 2, 3), dt.datetime(2013, 7, 4, 5, 6, 7)], pa.timestamp('us')),
})
pq.write_table(t, sys.argv[1])
`;

async function checkFiles(page, name) {
  const parquetPath = fileURLToPath(new URL('sales.parquet', ARTIFACTS));
  await run(`${ROOT}.venv/bin/python`, ['-c', PARQUET_SCRIPT, parquetPath], { timeout: 30_000 });
  const files = [
    { label: 'CSV', table: 'sales_csv', input: { name: 'sales csv.csv', mimeType: 'text/csv', buffer: Buffer.from(FILE_CSV) } },
    { label: 'Parquet', table: 'sales', input: parquetPath },
  ];
  for (const file of files) {
    const loaded = await clickAndSettle(page, '#data-panel', () => page.locator('#file-input').setInputFiles(file.input));
    const table = await page.locator('#table-stats').evaluate((el) => ({ ...el.dataset }));
    check(`${name}: a dropped ${file.label} file becomes table ${file.table} with 4 rows`,
      loaded === 'done' && table.table === file.table && table.rows === '4', `${loaded} ${JSON.stringify(table)}`);
    await page.locator('#sql-editor').fill(FILE_SQL(file.table));
    const state = await clickAndSettle(page, '#query-panel', () => page.locator('#run-button').click());
    const grid = JSON.parse((await page.locator('#result-json').textContent()) || 'null');
    const row = grid?.rows?.[0]?.map(String);
    check(`${name}: SQL over the ${file.label} file gives the known answer`,
      state === 'done' && JSON.stringify(row) === JSON.stringify(FILE_ANSWER), `${state} ${JSON.stringify(row)}`);
  }
}

async function checkLayout(page, name, width, height) {
  await page.setViewportSize({ width, height });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(150); // a frame for the layout
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  check(`${name}: no horizontal page scroll at ${width}×${height}`, overflow <= 0, `${overflow}px too wide`);
  await page.screenshot({ path: fileURLToPath(new URL(`demo-${name}-${width}x${height}.png`, ARTIFACTS)) });
  await page.screenshot({ path: fileURLToPath(new URL(`demo-${name}-${width}x${height}-full.png`, ARTIFACTS)), fullPage: true });
}

async function runPage(browser, name, url, isolated) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const log = [];
  page.on('pageerror', (error) => log.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && log.push(`console.error: ${message.text()}`));
  try {
    await page.goto(`${url}?autoload=0`);
    await page.waitForFunction(() => document.body.dataset.state, null, { timeout: STEP_TIMEOUT_MS });
    const env = await page.evaluate(() => ({ isolated: crossOriginIsolated, state: document.body.dataset.state }));
    const info = await page.locator('#engine-info').evaluate((el) => ({ ...el.dataset, text: el.textContent }));
    check(`${name}: crossOriginIsolated is ${isolated}`, env.isolated === isolated, String(env.isolated));
    const flavour = isolated ? 'simd128-mt' : 'simd128';
    const threadsOk = isolated ? cpus().length < 2 || Number(info.threads) > 1 : info.threads === '1';
    check(`${name}: the engine is ${flavour} on WASM, ${isolated ? 'threaded' : 'one thread'}`,
      env.state === 'ready' && info.flavour === flavour && info.target === 'WASM' && threadsOk, info.text);

    await page.locator('#rows-input').fill(String(ROWS));
    await page.locator('#seed-input').fill(String(SEED));
    const loaded = await clickAndSettle(page, '#data-panel', () => page.locator('#generate-button').click());
    const table = await page.locator('#table-stats').evaluate((el) => ({ ...el.dataset }));
    check(`${name}: generated ${ROWS} hits rows (seed ${SEED})`,
      loaded === 'done' && table.table === 'hits' && table.rows === String(ROWS) && Number(table.bytes) > ROWS * 100,
      `${loaded} ${JSON.stringify(table)}`);

    await checkPresets(page, name);
    await checkRace(page, name, isolated);
    if (isolated) {
      await checkLike(page, name);
      await checkSmallKey(page, name);
    }
    await clickAndSettle(page, '#query-panel', () => page.getByRole('button', { name: 'GROUP BY RegionID', exact: true }).click());
    await checkLayout(page, name, 1280, 800);
    await checkLayout(page, name, 390, 844);
    await page.setViewportSize({ width: 1280, height: 800 });
    await checkError(page, name);
    await page.locator('#query-panel').screenshot({ path: fileURLToPath(new URL(`demo-${name}-error.png`, ARTIFACTS)) });
    if (isolated) {
      await checkTpchJoin(page, name, SEED, { check, clickAndSettle, difference, parseAnswer, laneql: LANEQL });
      await page.locator('#join-panel').screenshot({ path: fileURLToPath(new URL(`demo-${name}-joins.png`, ARTIFACTS)) });
    }
    if (!isolated) await checkFiles(page, name);
    check(`${name}: no page errors`, log.length === 0, log.join(' | '));
  } catch (error) {
    check(`${name}: page runs to the end`, false, `${error.message.split('\n')[0]}; ${log.join(' | ')}`);
  } finally {
    await context.close();
  }
}

async function main() {
  if (!existsSync(`${DEMO_DIST}index.html`)) {
    check('the demo is built (make build-demo)', false, `no ${DEMO_DIST}index.html`);
    return;
  }
  if (!existsSync(LANEQL)) {
    check('the native laneql is built (make build-native)', false, `no ${LANEQL}`);
    return;
  }
  await mkdir(ARTIFACTS, { recursive: true });
  console.log(`demo test: ${ROWS} rows, seed ${SEED}, ${cpus().length} CPUs here`);
  const servers = [];
  let browser;
  try {
    const isolated = await startDemoServer({ root: DEMO_DIST, port: 0, isolated: true });
    servers.push(isolated);
    const plain = await startDemoServer({ root: DEMO_DIST, port: 0, isolated: false });
    servers.push(plain);
    browser = await launchChromium();
    console.log(`chromium ${browser.version()}, serving ${isolated.url} (isolated) and ${plain.url} (plain)`);
    await runPage(browser, 'isolated', isolated.url, true);
    await runPage(browser, 'plain', plain.url, false);
  } catch (error) {
    check('demo test set-up', false, error.message.split('\n')[0]);
  } finally {
    await closeBrowser(browser);
    await Promise.all(servers.map((s) => s.close()));
  }
}

const started = Date.now();
await checks.underDeadline(DEADLINE_MS, 'demo test', main);
checks.finish(` (${((Date.now() - started) / 1000).toFixed(1)} s)`);
