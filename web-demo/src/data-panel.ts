// The Data panel: generate ClickBench-like hits rows or TPC-H's 8 tables in the engine, or load a
// dropped CSV or Parquet file; then show what the table holds.
import type { DemoContext } from './context.js';
import { busy, byId, statItem } from './dom.js';
import type { DataSource } from './engines.js';
import { formatBytes, formatCount } from './format.js';
import { measureTable, type TableStats } from './table-stats.js';

// Generated hits rows take about this many bytes each (measured at 1 M rows); replaced by the
// measurement of the first table generated here.
const DEFAULT_BYTES_PER_ROW = 620;
// Of the memory limit, the share the table may take: the generator builds columns before it
// registers them, and queries need room for hash tables, sort runs and their results.
const TABLE_SHARE_OF_MEMORY = 0.4;
const ROW_STEP = 10_000;
// TPC-H's 8 tables take about this many bytes per unit of scale factor (14 MB at SF 0.01).
const TPCH_BYTES_PER_SF = 1.4e9;

/** A table name from a file name: letters, digits and underscores, not starting with a digit. */
function tableNameFor(fileName: string): string {
  const base = fileName.replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  if (base === '') return 'data';
  return /^[0-9]/.test(base) ? `t_${base}` : base;
}

export class DataPanel {
  readonly #context: DemoContext;
  readonly #form = byId<HTMLFormElement>('generate-form');
  readonly #range = byId<HTMLInputElement>('rows-range');
  readonly #rows = byId<HTMLInputElement>('rows-input');
  readonly #seed = byId<HTMLInputElement>('seed-input');
  readonly #button = byId<HTMLButtonElement>('generate-button');
  readonly #tpchForm = byId<HTMLFormElement>('tpch-form');
  readonly #tpchScale = byId<HTMLSelectElement>('tpch-scale');
  readonly #tpchButton = byId<HTMLButtonElement>('tpch-button');
  readonly #file = byId<HTMLInputElement>('file-input');
  readonly #drop = byId('drop-zone');
  readonly #limit = byId('rows-limit');
  readonly #stats = byId('table-stats');
  readonly #panel = byId('data-panel');
  #bytesPerRow = DEFAULT_BYTES_PER_ROW;
  #maxRows = 0;

  constructor(context: DemoContext) {
    this.#context = context;
    this.#updateLimit();
    this.#range.addEventListener('input', () => (this.#rows.value = this.#range.value));
    this.#rows.addEventListener('input', () => (this.#range.value = this.#rows.value));
    this.#form.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.generate();
    });
    this.#tpchForm.addEventListener('submit', (event) => {
      event.preventDefault();
      void this.generateTpch();
    });
    this.#file.addEventListener('change', () => {
      const file = this.#file.files?.[0];
      if (file) void this.loadFile(file);
    });
    this.#drop.addEventListener('dragover', (event) => {
      event.preventDefault();
      this.#drop.classList.add('dragging');
    });
    this.#drop.addEventListener('dragleave', () => this.#drop.classList.remove('dragging'));
    this.#drop.addEventListener('drop', (event) => {
      event.preventDefault();
      this.#drop.classList.remove('dragging');
      const file = event.dataTransfer?.files[0];
      if (file) void this.loadFile(file);
    });
  }

  // The slider's range follows the memory limit and the measured size of a row.
  #updateLimit(): void {
    const limitMB = this.#context.engines.main.info.memoryLimitMB;
    const fit = (limitMB * 2 ** 20 * TABLE_SHARE_OF_MEMORY) / this.#bytesPerRow;
    this.#maxRows = Math.max(ROW_STEP, Math.floor(fit / ROW_STEP) * ROW_STEP);
    this.#range.max = String(this.#maxRows);
    this.#rows.max = String(this.#maxRows);
    // A TPC-H scale factor whose tables would pass the same share is not offered.
    for (const option of this.#tpchScale.options) {
      option.disabled = Number(option.value) * TPCH_BYTES_PER_SF > limitMB * 2 ** 20 * TABLE_SHARE_OF_MEMORY;
    }
    this.#limit.textContent =
      `Up to ${formatCount(this.#maxRows)} rows: ${Math.round(TABLE_SHARE_OF_MEMORY * 100)}% of the ` +
      `engine’s ${formatCount(limitMB)} MB memory limit at ${formatCount(Math.round(this.#bytesPerRow))} bytes per row` +
      `${this.#bytesPerRow === DEFAULT_BYTES_PER_ROW ? ' (estimated)' : ' (measured)'}.`;
  }

  /** Generates hits rows with the form's row count and seed. */
  async generate(): Promise<void> {
    const rows = Math.floor(Number(this.#rows.value));
    const seed = Math.floor(Number(this.#seed.value));
    if (!(rows >= 1 && rows <= this.#maxRows)) {
      this.#context.status(`Rows must be from 1 to ${formatCount(this.#maxRows)}.`);
      this.#rows.focus();
      return;
    }
    if (!(seed >= 0)) {
      this.#context.status('The seed must be a whole number ≥ 0.');
      this.#seed.focus();
      return;
    }
    await this.#load({ kind: 'hits', table: 'hits', rows, seed }, `Generating ${formatCount(rows)} hits rows (seed ${seed})…`);
  }

  /** Generates TPC-H's 8 tables at the picked scale factor with the form's seed. */
  async generateTpch(): Promise<void> {
    const scaleFactor = Number(this.#tpchScale.value);
    const seed = Math.floor(Number(this.#seed.value));
    if (!(seed >= 0)) {
      this.#context.status('The seed must be a whole number ≥ 0.');
      this.#seed.focus();
      return;
    }
    await this.#load({ kind: 'tpch', table: 'lineitem', scaleFactor, seed },
      `Generating TPC-H at scale factor ${scaleFactor} (seed ${seed})…`, () => '', this.#tpchButton);
  }

  /** Reads a CSV (registerCSV, parsed in the engine) or Parquet file (hyparquet, then register). */
  async loadFile(file: File): Promise<void> {
    const table = tableNameFor(file.name);
    let note = '';
    const buffer = await file.arrayBuffer();
    const bytes = new Uint8Array(buffer);
    if (/\.parquet$/i.test(file.name)) {
      await this.#load(async () => {
        // Loaded on demand: most visits never read a Parquet file.
        const { readParquet } = await import('./parquet-columns.js');
        const parsed = await readParquet(buffer);
        if (parsed.skipped.length > 0) note = ` Left out (laneql has no such type): ${parsed.skipped.join(', ')}.`;
        return { kind: 'columns', table, fileName: file.name, columns: parsed.columns };
      }, `Reading ${file.name} (${formatBytes(bytes.length)}, Parquet)…`, () => note);
    } else {
      await this.#load({ kind: 'csv', table, fileName: file.name, bytes }, `Reading ${file.name} (${formatBytes(bytes.length)}, CSV)…`);
    }
  }

  /** Loads `source` into the engines; `note` adds to the final status line. */
  async #load(source: DataSource | (() => Promise<DataSource>), message: string, note = () => '',
    button = this.#button): Promise<void> {
    this.#context.status(message);
    const started = performance.now();
    try {
      await busy(button, this.#panel, async () => {
        const resolved = typeof source === 'function' ? await source() : source;
        await this.#context.engines.load(resolved);
        const stats = await measureTable(this.#context.engines.main.worker, resolved.table);
        if (resolved.kind === 'hits' && stats.rows > 0) {
          this.#bytesPerRow = stats.bytes / stats.rows;
          this.#updateLimit();
        }
        this.#show(stats, resolved);
        this.#context.tableChanged(stats);
      });
      this.#context.status(`Loaded in ${((performance.now() - started) / 1000).toFixed(2)} s.${note()}`);
    } catch (error) {
      this.#context.status(`Could not load the data: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  #show(stats: TableStats, source: DataSource): void {
    const origin = source.kind === 'hits' ? `generated, seed ${source.seed}`
      : source.kind === 'tpch' ? `TPC-H SF ${source.scaleFactor}, seed ${source.seed} (8 tables; ${stats.table} shown)`
      : source.fileName;
    this.#stats.replaceChildren(
      statItem('Table', stats.table),
      statItem('Rows', formatCount(stats.rows)),
      statItem('Columns', formatCount(stats.columns)),
      statItem('Bytes', formatBytes(stats.bytes)),
      statItem('From', origin),
    );
    this.#stats.dataset.table = stats.table;
    this.#stats.dataset.rows = String(stats.rows);
    this.#stats.dataset.bytes = String(stats.bytes);
    this.#stats.dataset.source = source.kind;
  }
}
