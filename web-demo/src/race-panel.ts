// The race: the editor's query on the scalar and SIMD builds (separate Workers with the same
// data) and, on a cross-origin isolated page, on the threaded build with 1 and with all threads.
// Each contestant warms up, then gives `runs` samples (see timing.ts); the bar is their median.
import type { Flavour, QueryOptions } from 'laneql';
import { renderBars, type Bar } from './bars.js';
import type { DemoContext } from './context.js';
import { busy, byId } from './dom.js';
import { describeEngine } from './engines.js';
import { formatMs } from './format.js';
import { toGrid } from './result-grid.js';
import { timeRuns } from './timing.js';

interface Contestant {
  flavour: Flavour;
  /** Threads for the query (undefined: all the engine has). */
  threads?: number;
}

export interface RaceEntry {
  label: string;
  flavour: Flavour;
  target: string;
  threads: number;
  medianMs: number;
  samples: number[];
  /** Runs averaged per sample (more than 1 for queries shorter than the clock's tick). */
  repeat: number;
  /** Whether its answer equals the first contestant's. */
  sameAnswer: boolean;
}

// Rows compared between contestants: enough to catch a wrong answer, cheap to serialise.
const COMPARED_ROWS = 1000;

export class RacePanel {
  readonly #context: DemoContext;
  readonly #button = byId<HTMLButtonElement>('race-button');
  readonly #runs = byId<HTMLSelectElement>('race-runs');
  readonly #bars = byId('race-bars');
  readonly #panel = byId('race-panel');

  constructor(context: DemoContext) {
    this.#context = context;
    this.#button.addEventListener('click', () => void this.race());
  }

  #contestants(): Contestant[] {
    const main = this.#context.engines.main.info;
    const list: Contestant[] = [{ flavour: 'scalar' }, { flavour: 'simd128' }];
    if (main.flavour === 'simd128-mt') {
      list.push({ flavour: 'simd128-mt', threads: 1 });
      if (main.threads > 1) list.push({ flavour: 'simd128-mt', threads: main.threads });
    }
    return list;
  }

  async race(): Promise<RaceEntry[] | undefined> {
    if (this.#context.table() === null) {
      this.#context.status('Load or generate data first.');
      return undefined;
    }
    const sql = this.#context.editorSql();
    const runs = Number(this.#runs.value);
    return busy(this.#button, this.#panel, async () => {
      const entries: RaceEntry[] = [];
      let reference: string | null = null;
      try {
        for (const contestant of this.#contestants()) {
          this.#context.status(`Race: preparing the ${contestant.flavour} engine…`);
          const engine = await this.#context.engines.engine(contestant.flavour);
          const options: QueryOptions = contestant.threads === undefined ? {} : { threads: contestant.threads };
          this.#context.status(`Race: ${runs} runs on ${contestant.flavour}${contestant.threads ? ` (${contestant.threads} thread${contestant.threads > 1 ? 's' : ''})` : ''}…`);
          const first = await engine.worker.query(sql, options);
          const answer = JSON.stringify(toGrid(first, COMPARED_ROWS));
          reference ??= answer;
          const timing = await timeRuns(async () => (await engine.worker.query(sql, options)).elapsedMs, runs);
          const threads = Math.min(contestant.threads ?? engine.info.threads, engine.info.threads);
          entries.push({
            label: contestant.flavour + (engine.info.flavour === 'simd128-mt' ? `, ${threads} thread${threads > 1 ? 's' : ''}` : ''),
            flavour: engine.info.flavour,
            target: engine.info.target,
            threads,
            medianMs: timing.medianMs,
            samples: timing.samples,
            repeat: timing.repeat,
            sameAnswer: answer === reference,
          });
          this.#draw(entries);
        }
        this.#context.status('Race finished.');
      } catch (error) {
        this.#context.status(`Race failed: ${error instanceof Error ? error.message : String(error)}`);
        throw error;
      }
      return entries;
    }).catch(() => undefined);
  }

  #draw(entries: RaceEntry[]): void {
    const slowest = Math.max(...entries.map((e) => e.medianMs));
    const bars: Bar[] = entries.map((e) => ({
      label: e.label,
      detail: describeEngine(e) + (e.sameAnswer ? '' : ' · DIFFERENT ANSWER'),
      value: e.medianMs,
      text: `${formatMs(e.medianMs)}${e.medianMs > 0 && slowest > e.medianMs ? ` · ×${(slowest / e.medianMs).toFixed(1)}` : ''}`,
      tone: e.flavour === 'scalar' ? 'slow' : e.threads > 1 ? 'fast' : 'mid',
    }));
    renderBars(this.#bars, bars, {
      caption: `Median of ${entries[0]?.samples.length ?? 0} samples after a warm-up, time in the engine; ×n = times faster than the slowest. ` +
        (entries.some((e) => e.repeat > 1) ? 'A sample of a query shorter than 2 ms is the mean of several runs (up to 64). ' : '') +
        (entries.every((e) => e.sameAnswer) ? 'Every engine gave the same answer.' : 'Some answers differ!'),
    });
    this.#bars.dataset.entries = JSON.stringify(entries.map(({ label, flavour, target, threads, medianMs, repeat, sameAnswer }) =>
      ({ label, flavour, target, threads, medianMs, repeat, sameAnswer })));
  }
}
