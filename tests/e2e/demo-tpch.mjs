// The web demo's TPC-H join panel (part of demo.mjs's run): generates TPC-H at SF 0.01 in the page,
// runs a join query from the panel's picker, and checks its answer and each join's counters
// (build rows, partitions, source rows the min/max filter skipped, probe rows, rows the key filter
// dropped, matches) against the native
// CLI's answer and profile on `laneql gen tpch` data of the same scale factor and seed.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const TPCH_TABLES = ['region', 'nation', 'supplier', 'customer', 'part', 'partsupp', 'orders', 'lineitem'];
const SCALE_FACTOR = '0.01';
// Q5: six tables, five joins (a chain down lineitem, and the small dimension joins).
const QUERY = 'Q5';

/** The native answer and the counters of its 'hash join probe' spans, on `laneql gen tpch` data. */
async function nativeJoin(laneql, seed, sql, parseAnswer) {
  const dir = await mkdtemp(join(tmpdir(), 'laneql-demo-tpch-'));
  try {
    await run(laneql, ['gen', 'tpch', '--sf', SCALE_FACTOR, '--seed', String(seed), '--out', dir], { timeout: 60_000 });
    const tables = TPCH_TABLES.flatMap((t) => ['--table', `${t}=${join(dir, `${t}.laneql`)}`]);
    const profile = join(dir, 'profile.json');
    const { stdout } = await run(laneql, [...tables, '--format', 'json', '--profile', profile, '-c', sql],
      { timeout: 30_000, maxBuffer: 64 << 20 });
    const trace = JSON.parse(await readFile(profile, 'utf8'));
    const joins = trace.traceEvents
      .filter((e) => e.ph === 'X' && e.name === 'hash join probe')
      .map((e) => ({
        build: e.args.build ?? 0, partitions: e.args.partitions ?? 1, skipped: e.args.skipped ?? 0,
        probe: e.args.rows,
        filtered: e.args.filtered ?? 0, matches: e.args.matches ?? 0,
      }));
    return { answer: parseAnswer(stdout), joins };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * tools: { check, clickAndSettle, difference, parseAnswer (laneql --format json → { columns, rows }),
 * laneql (the native CLI) }.
 */
export async function checkTpchJoin(page, name, seed, tools) {
  const { check, clickAndSettle, difference, parseAnswer, laneql } = tools;
  await page.locator('#seed-input').fill(String(seed));
  await page.locator('#tpch-scale').selectOption(SCALE_FACTOR);
  const loaded = await clickAndSettle(page, '#data-panel', () => page.locator('#tpch-button').click());
  const stats = await page.locator('#table-stats').evaluate((el) => ({ ...el.dataset }));
  check(`${name}: TPC-H SF ${SCALE_FACTOR} generated in the page (lineitem ${stats.rows} rows)`,
    loaded === 'done' && stats.source === 'tpch' && stats.table === 'lineitem' && Number(stats.rows) > 50_000,
    `${loaded} ${JSON.stringify(stats)}`);

  await page.locator('#tpch-query').selectOption(QUERY);
  const state = await clickAndSettle(page, '#query-panel', () => page.locator('#join-run').click());
  const sql = await page.locator('#sql-editor').inputValue();
  const grid = JSON.parse((await page.locator('#result-json').textContent()) || 'null');
  if (state !== 'done' || grid === null) {
    check(`${name}: TPC-H ${QUERY} runs from the join panel`, false, await page.locator('#sql-error').textContent());
    return;
  }
  const native = await nativeJoin(laneql, seed, sql, parseAnswer);
  const diff = difference(grid, native.answer);
  check(`${name}: TPC-H ${QUERY} equals the native engine (${grid.numRows} rows)`, diff === null, diff ?? '');

  const drawn = await page.locator('#join-list .join-card').evaluateAll((cards) => cards.map((c) => ({
    build: Number(c.dataset.build), partitions: Number(c.dataset.partitions), skipped: Number(c.dataset.skipped),
    probe: Number(c.dataset.probe),
    filtered: Number(c.dataset.filtered), matches: Number(c.dataset.matches),
  })));
  check(`${name}: the join panel draws ${QUERY}'s ${native.joins.length} joins with the native profile's counters`,
    native.joins.length > 0 && JSON.stringify(drawn) === JSON.stringify(native.joins),
    `page ${JSON.stringify(drawn)} native ${JSON.stringify(native.joins)}`);
  check(`${name}: a join's key filter dropped probe rows before the hash table`,
    drawn.some((j) => j.filtered > 0 && j.filtered <= j.probe), JSON.stringify(drawn));
  const text = await page.locator('#join-list').textContent();
  check(`${name}: each join is described in words`, drawn.every((_, i) => text.includes(`Join ${i + 1}:`)), text);
}
