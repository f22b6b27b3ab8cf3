// The browser test: the package as it ships, in headless Chromium (Debian's, never a download),
// on a cross-origin isolated page (threaded flavour, in a module Worker and on the main thread)
// and on a plain page (single-threaded flavours on the main thread). Prints one line per check, then
// "N passed, M failed"; exits 1 on any failure. Never hangs: everything runs under a deadline.
import { mkdir } from 'node:fs/promises';
import { cpus } from 'node:os';
import { Checks, closeBrowser, launchChromium } from './harness.mjs';
import { startServer } from './server.mjs';
import { importSharedModule } from './shared-ts.mjs';

const DEADLINE_MS = 120_000;
const PAGE_TIMEOUT_MS = 60_000;
const ARTIFACTS = new URL('./artifacts/', import.meta.url);
// Enough rows for several 4096-row blocks per thread; the data is order-sensitive.
const ROWS = 100003;
const SEED = 2024;

const CASES = [
  {
    name: 'isolated-worker-auto',
    path: '/isolated/page/index.html',
    query: { where: 'worker' },
    expect: { isolated: true, flavour: 'simd128-mt', target: 'WASM', threaded: true },
  },
  {
    // Works too (joins busy-wait on the main thread, blocking the page while a sum runs).
    name: 'isolated-main-auto',
    path: '/isolated/page/index.html',
    query: { where: 'main' },
    expect: { isolated: true, flavour: 'simd128-mt', target: 'WASM', threaded: true },
  },
  {
    name: 'plain-main-auto',
    path: '/plain/page/index.html',
    query: { where: 'main' },
    expect: { isolated: false, flavour: 'simd128', target: 'WASM', threaded: false },
  },
  {
    name: 'plain-main-scalar',
    path: '/plain/page/index.html',
    query: { where: 'main', flavour: 'scalar' },
    expect: { isolated: false, flavour: 'scalar', target: 'EMU128', threaded: false },
  },
  {
    // The package's own Worker API: the threaded flavour in the Worker it starts.
    name: 'isolated-package-worker',
    path: '/isolated/page/index.html',
    query: { where: 'package-worker' },
    expect: { isolated: true, flavour: 'simd128-mt', target: 'WASM', threaded: true, sqlOnly: true },
  },
  {
    name: 'plain-package-worker',
    path: '/plain/page/index.html',
    query: { where: 'package-worker' },
    expect: { isolated: false, flavour: 'simd128', target: 'WASM', threaded: false, sqlOnly: true },
  },
  {
    name: 'plain-main-forced-mt',
    path: '/plain/page/index.html',
    query: { where: 'main', flavour: 'simd128-mt' },
    expect: { isolated: false, error: /^LaneQLError: .*cross-origin isolated/ },
  },
];

const checks = new Checks();
const check = checks.check.bind(checks);

function checkCase(testCase, result, expected) {
  const { name, expect: want } = testCase;
  const env = result.environment ?? {};
  check(`${name}: crossOriginIsolated is ${want.isolated}`, env.crossOriginIsolated === want.isolated,
    `got ${env.crossOriginIsolated}`);
  if (want.error) {
    const text = result.error ? `${result.error.name}: ${result.error.message}` : 'no error';
    check(`${name}: create() fails with a LaneQLError`, want.error.test(text), text);
    return;
  }
  if (result.error) {
    check(`${name}: runs without error`, false, `${result.error.name}: ${result.error.message}`);
    return;
  }
  const { info } = result;
  if (!testCase.query.flavour) {
    check(`${name}: detectFlavour() is ${want.flavour}`, env.detectedFlavour === want.flavour, env.detectedFlavour);
  }
  check(`${name}: flavour is ${want.flavour}`, info.flavour === want.flavour, info.flavour);
  check(`${name}: target is ${want.target}`, info.target === want.target, info.target);
  if (want.threaded && env.hardwareConcurrency > 1) {
    check(`${name}: threads > 1`, info.threads > 1, `threads ${info.threads}`);
  } else {
    check(`${name}: threads is ${want.threaded ? 'at least 1' : '1'}`,
      want.threaded ? info.threads >= 1 : info.threads === 1, `threads ${info.threads}`);
  }
  check(`${name}: SQL on generated hits equals Node's answers`,
    JSON.stringify(result.sql) === JSON.stringify(expected.sql), JSON.stringify(result.sql));
  if (want.sqlOnly) {
    const e = result.queryError ?? {};
    check(`${name}: a bad query rejects with LaneQLError at line 1, column 8`,
      e.name === 'LaneQLError' && e.line === 1 && e.column === 8 && /"nope"/.test(e.message), JSON.stringify(e));
    return;
  }
  check(`${name}: sumFloat64 bits equal the reference (${expected.float64})`,
    result.sumFloat64 === expected.float64, result.sumFloat64);
  check(`${name}: sumInt64 equals the exact sum (${expected.int64})`,
    result.sumInt64 === expected.int64, result.sumInt64);
  check(`${name}: threads 1-4 give the same float bits`,
    result.sumFloat64ByThreads.every((bits) => bits === expected.float64), result.sumFloat64ByThreads.join(' '));
  check(`${name}: threads 1-4 give the same int64 sum`,
    result.sumInt64ByThreads.every((sum) => sum === expected.int64), result.sumInt64ByThreads.join(' '));
}

async function runCase(browser, origin, testCase, expected) {
  const context = await browser.newContext({ viewport: { width: 900, height: 420 } });
  const page = await context.newPage();
  const log = [];
  page.on('console', (message) => log.push(`console.${message.type()}: ${message.text()}`));
  page.on('pageerror', (error) => log.push(`pageerror: ${error.message}`));
  try {
    const query = new URLSearchParams({ ...testCase.query, rows: String(ROWS), seed: String(SEED) });
    await page.goto(`${origin}${testCase.path}?${query}`);
    await page.waitForFunction(() => document.body.dataset.state === 'done', null, { timeout: PAGE_TIMEOUT_MS });
    const result = await page.evaluate(() => window.laneqlResult);
    await page.screenshot({ path: new URL(`${testCase.name}.png`, ARTIFACTS).pathname });
    checkCase(testCase, result, expected);
  } catch (error) {
    check(`${testCase.name}: page finishes`, false, `${error.message.split('\n')[0]}; ${log.join(' | ')}`);
  } finally {
    await context.close();
  }
}

// The SQL answers of the package in Node (single-threaded SIMD), which every browser case must
// reproduce.
async function nodeAnswers() {
  const { LaneQL } = await import('../../bindings-js/dist/index.js');
  const { runQueries } = await import('./page/sql-cases.js');
  const db = await LaneQL.create({ flavour: 'simd128' });
  try {
    return await runQueries(db, SEED);
  } finally {
    db.close();
  }
}

async function main() {
  const { cancellationFloat64, extremeInt64 } = await importSharedModule('data');
  const { referenceSumFloat64, referenceSumInt64, float64Bits } = await importSharedModule('reference');
  const expected = {
    float64: float64Bits(referenceSumFloat64(cancellationFloat64(ROWS, SEED))),
    int64: referenceSumInt64(extremeInt64(ROWS, SEED)).toString(),
    sql: await nodeAnswers(),
  };
  await mkdir(ARTIFACTS, { recursive: true });
  console.log(`browser test: ${ROWS} rows, seed ${SEED}, ${cpus().length} CPUs here`);

  let server;
  let browser;
  try {
    server = await startServer();
    browser = await launchChromium();
    console.log(`chromium ${browser.version()}, serving ${server.origin}`);
    for (const testCase of CASES) await runCase(browser, server.origin, testCase, expected);
  } catch (error) {
    check('browser test set-up', false, error.message.split('\n')[0]);
  } finally {
    await closeBrowser(browser);
    await server?.close();
  }
}

await checks.underDeadline(DEADLINE_MS, 'browser test', main);
checks.finish();
