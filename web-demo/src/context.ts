// What the panels share: the engines, the current table and the page's status line.
import type { Engines } from './engines.js';
import type { TableStats } from './table-stats.js';

export interface DemoContext {
  readonly engines: Engines;
  /** The table loaded last, or null before any. */
  table(): TableStats | null;
  /** Tells every panel that a new table is loaded. */
  tableChanged(stats: TableStats): void;
  /** The SQL in the query editor. */
  editorSql(): string;
  /** A message in the page's live status line. */
  status(message: string): void;
}
