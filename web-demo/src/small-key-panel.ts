// Small-key GROUP BY: the same query with the 65,536-slot lookup table (smallKeyLookup: true,
// the default) and through the hash table (false), samples alternating so that both see the same
// cache and clock conditions; medians as bars, and a check that both give the same groups.
import { renderBars } from './bars.js';
import type { DemoContext } from './context.js';
import { busy, byId } from './dom.js';
import { formatMs, median } from './format.js';
import { toGrid } from './result-grid.js';
import { repeatFor, sampleMs } from './timing.js';

export interface SmallKeyOutcome {
  lookupMs: number;
  hashMs: number;
  runs: number;
  /** Runs averaged per sample (see timing.ts). */
  repeat: number;
  sameResult: boolean;
  groups: number;
}

// Groups come out in first-seen order with either table, but a query without ORDER BY does not
// promise it: compare the sorted rows.
function sortedRows(rows: unknown[][]): string {
  return JSON.stringify(rows.map((r) => JSON.stringify(r)).sort());
}

export class SmallKeyPanel {
  readonly #context: DemoContext;
  readonly #sql = byId<HTMLTextAreaElement>('small-key-sql');
  readonly #runs = byId<HTMLSelectElement>('small-key-runs');
  readonly #button = byId<HTMLButtonElement>('small-key-button');
  readonly #bars = byId('small-key-bars');
  readonly #check = byId('small-key-check');
  readonly #panel = byId('small-key-panel');

  constructor(context: DemoContext) {
    this.#context = context;
    this.#button.addEventListener('click', () => void this.compare());
    this.#sql.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        void this.compare();
      }
    });
  }

  async compare(): Promise<void> {
    if (this.#context.table() === null) {
      this.#context.status('Load or generate data first.');
      return;
    }
    const sql = this.#sql.value;
    const runs = Number(this.#runs.value);
    await busy(this.#button, this.#panel, async () => {
      try {
        const worker = this.#context.engines.main.worker;
        const runLookup = async () => (await worker.query(sql, { smallKeyLookup: true })).elapsedMs;
        const runHash = async () => (await worker.query(sql, { smallKeyLookup: false })).elapsedMs;
        // Warm-up runs, which also give the answers to compare.
        const lookup = await worker.query(sql, { smallKeyLookup: true });
        const hash = await worker.query(sql, { smallKeyLookup: false });
        const lookupGrid = toGrid(lookup, Number.MAX_SAFE_INTEGER);
        const hashGrid = toGrid(hash, Number.MAX_SAFE_INTEGER);
        const repeat = repeatFor(Math.min(await runLookup(), await runHash()));
        const lookupTimes: number[] = [];
        const hashTimes: number[] = [];
        for (let i = 0; i < runs; i++) {
          lookupTimes.push(await sampleMs(runLookup, repeat));
          hashTimes.push(await sampleMs(runHash, repeat));
        }
        this.#show({
          lookupMs: median(lookupTimes),
          hashMs: median(hashTimes),
          runs,
          repeat,
          sameResult: sortedRows(lookupGrid.rows) === sortedRows(hashGrid.rows) &&
            JSON.stringify(lookupGrid.columns) === JSON.stringify(hashGrid.columns),
          groups: lookup.numRows,
        });
      } catch (error) {
        this.#check.textContent = error instanceof Error ? error.message : String(error);
        this.#bars.replaceChildren();
        throw error;
      }
    }).catch(() => undefined);
  }

  #show(outcome: SmallKeyOutcome): void {
    const { lookupMs, hashMs } = outcome;
    renderBars(this.#bars, [
      { label: 'lookup table', detail: 'key → slot, no hashing', value: lookupMs, text: formatMs(lookupMs), tone: 'fast' },
      { label: 'hash table', detail: 'hash, probe, compare keys', value: hashMs, text: formatMs(hashMs), tone: 'slow' },
    ], {
      caption: `Median of ${outcome.runs} samples each, time in the engine (all threads)` +
        (outcome.repeat > 1 ? `; each sample the mean of ${outcome.repeat} runs, as one run is shorter than 2 ms.` : '.'),
    });
    const faster = lookupMs > 0 ? hashMs / lookupMs : NaN;
    this.#check.textContent =
      `${outcome.groups} groups. ` +
      (Number.isFinite(faster) ? `The lookup table took ${formatMs(lookupMs)}, the hash table ${formatMs(hashMs)} (×${faster.toFixed(2)}). ` : '') +
      (outcome.sameResult ? 'Both gave the same groups and counts ✓' : 'The two answers DIFFER ✗');
    this.#check.dataset.outcome = JSON.stringify(outcome);
  }
}
