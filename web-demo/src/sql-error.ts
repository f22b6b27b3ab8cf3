// A SQL error with its place marked: the message, the offending line with the character at the
// error's column highlighted and a caret under it, and the editor's cursor moved there.
import { el } from './dom.js';

export interface SqlErrorPosition {
  message: string;
  /** 1-based, as LaneQLError gives them; undefined when the error has no place. */
  line: number | undefined;
  column: number | undefined;
}

/** Character offset in `text` of a 1-based line and column (columns count UTF-16 units here). */
export function offsetOf(text: string, line: number, column: number): number {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) offset += lines[i]!.length + 1;
  return Math.min(offset + column - 1, text.length);
}

export function showSqlError(box: HTMLElement, editor: HTMLTextAreaElement, error: SqlErrorPosition): void {
  const { message, line, column } = error;
  box.hidden = false;
  box.setAttribute('role', 'alert');
  box.dataset.line = line === undefined ? '' : String(line);
  box.dataset.column = column === undefined ? '' : String(column);
  const parts: Node[] = [el('p', { class: 'sql-error-message' }, message)];
  if (line !== undefined && column !== undefined) {
    const text = editor.value.split('\n')[line - 1] ?? '';
    const at = Math.min(column - 1, text.length);
    // The marked character, or a visible gap when the error is at the end of the line.
    const marked = text.slice(at, at + 1) || ' ';
    parts.push(
      el('pre', { class: 'sql-error-excerpt', 'aria-label': `line ${line}, column ${column}` },
        el('span', { class: 'sql-error-gutter' }, `${line} | `),
        text.slice(0, at),
        el('mark', { 'data-testid': 'sql-error-mark' }, marked),
        text.slice(at + 1),
        '\n',
        el('span', { class: 'sql-error-caret', 'aria-hidden': 'true' }, `${' '.repeat(`${line} | `.length + at)}^`)),
    );
    const offset = offsetOf(editor.value, line, column);
    editor.setSelectionRange(offset, Math.min(offset + 1, editor.value.length));
  }
  box.replaceChildren(...parts);
  editor.classList.add('has-error');
  editor.setAttribute('aria-invalid', 'true');
}

export function clearSqlError(box: HTMLElement, editor: HTMLTextAreaElement): void {
  box.hidden = true;
  box.replaceChildren();
  delete box.dataset.line;
  delete box.dataset.column;
  editor.classList.remove('has-error');
  editor.removeAttribute('aria-invalid');
}
