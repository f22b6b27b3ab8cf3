// LIKE '%needle%': how many start positions each stage of the substring search lets through.
// laneql scans the column's whole byte buffer, not row by row: a SIMD compare of two needle
// bytes at once (by default its first and last) marks candidates, and only those are verified.
import type { LikePrefilterCounts } from 'laneql';
import { renderBars } from './bars.js';
import type { DemoContext } from './context.js';
import { busy, byId } from './dom.js';
import { formatCount, formatMs } from './format.js';
import { quoteIdentifier } from './table-stats.js';

export interface LikeOutcome {
  counts: LikePrefilterCounts;
  /** count(*) of the same LIKE in SQL: must equal counts.matchingRows. */
  sqlCount: number;
}

/** The needle as a LIKE pattern literal that matches it literally (%, _ and \ escaped). */
function likeLiteral(needle: string): string {
  const escaped = needle.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll("'", "''");
  return `'%${escaped}%' ESCAPE '\\'`;
}

function ratio(a: number, b: number): string {
  if (b === 0) return a === 0 ? '1' : '∞';
  const r = a / b;
  return r >= 10 ? r.toFixed(0) : r.toFixed(1);
}

export class LikePanel {
  readonly #context: DemoContext;
  readonly #column = byId<HTMLInputElement>('like-column');
  readonly #needle = byId<HTMLInputElement>('like-needle');
  readonly #button = byId<HTMLButtonElement>('like-button');
  readonly #bars = byId('like-bars');
  readonly #explain = byId('like-explain');
  readonly #json = byId('like-json');
  readonly #panel = byId('like-panel');

  constructor(context: DemoContext) {
    this.#context = context;
    this.#button.addEventListener('click', () => void this.count());
    for (const input of [this.#column, this.#needle]) {
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') void this.count();
      });
    }
  }

  async count(): Promise<void> {
    const table = this.#context.table();
    if (table === null) {
      this.#context.status('Load or generate data first.');
      return;
    }
    const column = this.#column.value.trim();
    const needle = this.#needle.value;
    await busy(this.#button, this.#panel, async () => {
      try {
        const worker = this.#context.engines.main.worker;
        const counts = await worker.likePrefilterCounts(table.table, column, needle);
        const check = await worker.query(
          `SELECT count(*) FROM ${quoteIdentifier(table.table)} WHERE ${quoteIdentifier(column)} LIKE ${likeLiteral(needle)}`);
        const sqlCount = Number((check.column(0) as BigInt64Array)[0]);
        this.#show(needle, column, { counts, sqlCount });
      } catch (error) {
        this.#explain.textContent = error instanceof Error ? error.message : String(error);
        this.#bars.replaceChildren();
        throw error;
      }
    }).catch(() => undefined);
  }

  #show(needle: string, column: string, outcome: LikeOutcome): void {
    const { counts, sqlCount } = outcome;
    const bytes = new TextEncoder().encode(needle);
    const [i1, i2] = counts.prefilterPositions;
    const byteText = (i: number) => {
      const b = bytes[i] ?? 0;
      return b >= 0x20 && b < 0x7f ? `'${String.fromCharCode(b)}'` : `0x${b.toString(16).padStart(2, '0')}`;
    };
    renderBars(this.#bars, [
      { label: 'start positions', value: counts.positions, text: formatCount(counts.positions), tone: 'slow' },
      { label: `one byte ${byteText(i1)}`, value: counts.firstByte, text: formatCount(counts.firstByte), tone: 'mid' },
      { label: `two bytes ${byteText(i1)} + ${byteText(i2)}`, value: counts.twoByte, text: formatCount(counts.twoByte), tone: 'fast' },
      { label: 'verified matches', value: counts.verified, text: formatCount(counts.verified), tone: 'fast' },
      { label: 'matching rows', value: counts.matchingRows, text: formatCount(counts.matchingRows), tone: 'fast' },
    ], { scale: 'log', caption: 'Candidates left after each stage (log scale; the numbers are exact).' });
    this.#explain.textContent =
      `${column} holds ${formatCount(counts.bytes)} bytes in ${formatCount(counts.rows)} rows, so '%${needle}%' could start at ` +
      `${formatCount(counts.positions)} positions. Testing only byte ${i1} (${byteText(i1)}) would leave ${formatCount(counts.firstByte)} ` +
      `candidates to compare in full; testing bytes ${i1} and ${i2} of the needle together (${byteText(i1)} and ${byteText(i2)}, ` +
      `16 positions per SIMD compare) leaves ${formatCount(counts.twoByte)}, ${ratio(counts.firstByte, counts.twoByte)}× fewer. ` +
      `${formatCount(counts.verified)} of them are whole matches inside one row, in ${formatCount(counts.matchingRows)} rows ` +
      `(the counting pass took ${formatMs(counts.elapsedMs)}). SQL's count(*) … LIKE agrees: ${formatCount(sqlCount)}` +
      `${sqlCount === counts.matchingRows ? ' ✓' : ' ✗ (differs!)'}.`;
    this.#json.textContent = JSON.stringify(outcome);
  }
}
