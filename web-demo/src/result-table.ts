// The results table: at most DISPLAY_ROWS rows in the DOM (a result can have millions), and the
// same rows as JSON in a hidden <pre> that the end-to-end test reads.
import { el } from './dom.js';
import { formatCount } from './format.js';
import type { Cell, ResultGrid } from './result-grid.js';

export const DISPLAY_ROWS = 200;

const NUMERIC = /INT|FLOAT|DOUBLE/;

function cellText(value: Cell): string {
  if (value === null) return 'NULL';
  return String(value);
}

export function renderResultTable(table: HTMLTableElement, json: HTMLElement, grid: ResultGrid): void {
  const numeric = grid.types.map((t) => NUMERIC.test(t));
  const head = el('thead', {}, el('tr', {}, ...grid.columns.map((name, i) =>
    el('th', { scope: 'col', class: numeric[i] ? 'num' : '' }, name, el('small', {}, grid.types[i] ?? '')))));
  const body = el('tbody');
  for (const row of grid.rows) {
    body.append(el('tr', {}, ...row.map((value, i) =>
      el('td', { class: `${numeric[i] ? 'num' : ''}${value === null ? ' null' : ''}` }, cellText(value)))));
  }
  const shown = grid.rows.length;
  const caption = el('caption', {},
    shown < grid.numRows
      ? `${formatCount(shown)} of ${formatCount(grid.numRows)} rows shown`
      : `${formatCount(grid.numRows)} row${grid.numRows === 1 ? '' : 's'}`);
  table.replaceChildren(caption, head, body);
  json.textContent = JSON.stringify(grid);
}

export function clearResultTable(table: HTMLTableElement, json: HTMLElement): void {
  table.replaceChildren();
  json.textContent = '';
}
