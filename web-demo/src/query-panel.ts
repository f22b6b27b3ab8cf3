// The Query panel: presets, the SQL editor (Ctrl/Cmd+Enter runs), time and throughput, the result
// table, and errors marked at their line and column.
import { LaneQLError, type QueryResult } from 'laneql';
import type { DemoContext } from './context.js';
import { busy, byId, el, statItem } from './dom.js';
import { formatBytes, formatCount, formatMs, formatRate } from './format.js';
import { PRESETS } from './presets.js';
import { readProfile, type Timeline } from './profile.js';
import { toGrid } from './result-grid.js';
import { clearResultTable, DISPLAY_ROWS, renderResultTable } from './result-table.js';
import { clearSqlError, showSqlError } from './sql-error.js';

export class QueryPanel {
  readonly #context: DemoContext;
  readonly #onTimeline: (timeline: Timeline | null) => void;
  readonly #editor = byId<HTMLTextAreaElement>('sql-editor');
  readonly #run = byId<HTMLButtonElement>('run-button');
  readonly #error = byId('sql-error');
  readonly #summary = byId('query-summary');
  readonly #stats = byId('query-stats');
  readonly #table = byId<HTMLTableElement>('result-table');
  readonly #json = byId('result-json');
  readonly #panel = byId('query-panel');

  constructor(context: DemoContext, onTimeline: (timeline: Timeline | null) => void) {
    this.#context = context;
    this.#onTimeline = onTimeline;
    this.#editor.value = PRESETS[2]!.sql;
    const presets = byId('presets');
    PRESETS.forEach((preset, i) => {
      const button = el('button', { type: 'button', class: 'preset', title: preset.shows, 'data-preset': i }, preset.label);
      button.addEventListener('click', () => {
        this.#editor.value = preset.sql;
        void this.run();
      });
      presets.append(button);
    });
    this.#run.addEventListener('click', () => void this.run());
    this.#editor.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        void this.run();
      }
    });
    this.#editor.addEventListener('input', () => clearSqlError(this.#error, this.#editor));
  }

  get sql(): string {
    return this.#editor.value;
  }

  /** Puts `sql` in the editor and runs it (the join panel's TPC-H picker). */
  async runSql(sql: string): Promise<void> {
    this.#editor.value = sql;
    await this.run();
  }

  /** Runs the editor's SQL on the main engine, profiled. */
  async run(): Promise<void> {
    const sql = this.#editor.value;
    clearSqlError(this.#error, this.#editor);
    this.#summary.textContent = 'Running…';
    // The error is shown inside the busy task, so the panel's data-state says "error" only once
    // the marked error is on the page.
    await busy(this.#run, this.#panel, async () => {
      try {
        this.#show(await this.#context.engines.main.worker.query(sql, { profile: true }));
      } catch (error) {
        this.#showError(error);
        throw error;
      }
    }).catch(() => undefined);
  }

  #show(result: QueryResult): void {
    const timeline = result.profile ? readProfile(result.profile) : null;
    const ms = result.elapsedMs;
    const rows = timeline?.scannedRows ?? 0;
    const bytes = timeline?.scannedBytes ?? 0;
    const notes: string[] = [];
    if (rows === 0) notes.push('no column data read: answered from the table’s row count');
    else if (bytes === 0) notes.push('this plan’s profile counts rows but not bytes, so no GB/s');
    // Browsers coarsen the clock to 0.1 ms on pages that are not cross-origin isolated.
    if (!globalThis.crossOriginIsolated && ms < 1) notes.push('the clock ticks in 0.1 ms on this page');
    this.#summary.textContent =
      `${formatCount(result.numRows)} row${result.numRows === 1 ? '' : 's'} in ${formatMs(ms)}` +
      (notes.length > 0 ? ` (${notes.join('; ')})` : '');
    const threadsUsed = timeline ? new Set(timeline.spans.map((s) => s.tid)).size || 1 : 1;
    this.#stats.replaceChildren(
      statItem('Time in engine', formatMs(ms)),
      statItem('Rows scanned', formatCount(rows)),
      statItem('Rows / s', formatRate(rows, ms, 'rows')),
      statItem('Column data read', formatBytes(bytes)),
      statItem('Throughput', formatRate(bytes, ms, 'bytes')),
      statItem('Threads used', String(threadsUsed)),
    );
    Object.assign(this.#stats.dataset, { ms: String(ms), rows: String(rows), bytes: String(bytes) });
    renderResultTable(this.#table, this.#json, toGrid(result, DISPLAY_ROWS));
    this.#onTimeline(timeline);
  }

  #showError(error: unknown): void {
    this.#summary.textContent = 'The query failed.';
    this.#stats.replaceChildren();
    clearResultTable(this.#table, this.#json);
    const message = error instanceof Error ? error.message : String(error);
    const laneql = error instanceof LaneQLError ? error : null;
    showSqlError(this.#error, this.#editor, { message, line: laneql?.line, column: laneql?.column });
    this.#editor.focus();
  }
}
