// The join panel: a TPC-H join query from the picker runs in the query editor, and each hash join
// of the last query is drawn from its profile span (profile.ts's JoinCounters) as a funnel:
// probe source rows the min/max runtime filter left unread, probe rows, those the runtime key
// filter dropped before the hash table, those that looked a key up in it, and the matches; with
// the build side's rows and its hash table's partitions.
import { renderBars } from './bars.js';
import type { DemoContext } from './context.js';
import { byId, el } from './dom.js';
import { formatCount } from './format.js';
import type { JoinCounters, Timeline } from './profile.js';
import { TPCH_QUERIES } from './tpch-queries.js';

/** "1 row", "1,648 rows". */
function rows(n: number): string {
  return `${formatCount(n)} row${n === 1 ? '' : 's'}`;
}

/** "12.3%" of a whole (0 of nothing is 0%). */
function percent(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '0%';
}

/** One sentence per join for screen readers and for anyone who prefers numbers to bars. */
export function describeJoin(index: number, join: JoinCounters): string {
  const partitions = join.partitions > 1 ? ` placed in ${formatCount(join.partitions)} partitions` : '';
  const skipped = join.skipped > 0
    ? `the build keys' min/max range left ${rows(join.skipped)} of the probe side unread; `
    : '';
  const filter = join.filtered > 0
    ? `the key filter dropped ${formatCount(join.filtered)} (${percent(join.filtered, join.probeRows)}) before the hash table, `
    : 'no row was dropped by a key filter, ';
  return `Join ${index}: ${formatCount(join.probeRows)} probe rows against a hash table of ` +
    `${rows(join.build).replace('row', 'build row')}${partitions}; ${skipped}${filter}${formatCount(join.lookedUp)} looked their key up, ` +
    `${formatCount(join.matches)} matched.`;
}

export class JoinPanel {
  readonly #context: DemoContext;
  readonly #picker = byId<HTMLSelectElement>('tpch-query');
  readonly #about = byId('tpch-query-about');
  readonly #button = byId<HTMLButtonElement>('join-run');
  readonly #joins = byId('join-list');
  readonly #summary = byId('join-summary');
  readonly #run: (sql: string) => Promise<void>;

  /** `run` puts SQL in the query editor and runs it (QueryPanel.runSql). */
  constructor(context: DemoContext, run: (sql: string) => Promise<void>) {
    this.#context = context;
    this.#run = run;
    for (const query of TPCH_QUERIES) {
      this.#picker.append(el('option', { value: query.label }, query.label));
    }
    this.#picker.addEventListener('change', () => this.#describe());
    this.#describe();
    this.#button.addEventListener('click', () => void this.runPicked());
  }

  #picked() {
    return TPCH_QUERIES.find((q) => q.label === this.#picker.value) ?? TPCH_QUERIES[0]!;
  }

  #describe(): void {
    this.#about.textContent = this.#picked().joins;
  }

  /** Runs the picked TPC-H query (its tables must be loaded: the Data panel's TPC-H choice). */
  async runPicked(): Promise<void> {
    if (this.#context.engines.source?.kind !== 'tpch') {
      this.#context.status('Generate the TPC-H tables first (Data panel).');
      return;
    }
    this.#button.disabled = true;
    try {
      await this.#run(this.#picked().sql);
    } finally {
      this.#button.disabled = false;
    }
  }

  /** Draws the joins of the last query's profile (called for every query the editor runs). */
  show(timeline: Timeline | null): void {
    const joins = (timeline?.spans ?? []).flatMap((s) => (s.join ? [s.join] : []));
    this.#joins.dataset.joins = String(joins.length);
    if (joins.length === 0) {
      this.#joins.replaceChildren(el('p', { class: 'empty' }, 'The last query had no hash join.'));
      this.#summary.textContent = '';
      return;
    }
    this.#joins.replaceChildren(...joins.map((join, i) => this.#drawJoin(i + 1, join)));
    const last = joins[joins.length - 1]!;
    this.#summary.textContent = `${joins.length} join${joins.length === 1 ? '' : 's'}, in the order they ran; ` +
      `the last one matched ${formatCount(last.matches)} rows.`;
  }

  #drawJoin(index: number, join: JoinCounters): HTMLElement {
    const chart = el('div', { class: 'chart' });
    renderBars(chart, [
      { label: 'skipped by min/max', value: join.skipped, text: formatCount(join.skipped), tone: 'slow' },
      { label: 'probe rows', value: join.probeRows, text: formatCount(join.probeRows) },
      { label: 'dropped by key filter', value: join.filtered, text: formatCount(join.filtered), tone: 'slow' },
      { label: 'looked up', value: join.lookedUp, text: formatCount(join.lookedUp) },
      { label: 'matches', value: join.matches, text: formatCount(join.matches), tone: 'fast' },
    ]);
    const partitions = join.partitions > 1 ? `, ${formatCount(join.partitions)} partitions` : ', 1 partition';
    return el('article', {
      class: 'join-card',
      'data-build': join.build, 'data-partitions': join.partitions, 'data-skipped': join.skipped,
      'data-probe': join.probeRows,
      'data-filtered': join.filtered, 'data-looked-up': join.lookedUp, 'data-matches': join.matches,
    },
    el('h3', {}, `Join ${index}`, el('small', {}, ` build ${rows(join.build)}${partitions}`)),
    chart,
    el('p', { class: 'explain' }, describeJoin(index, join)));
  }
}
