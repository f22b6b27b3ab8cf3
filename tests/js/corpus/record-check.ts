// Expected vs actual for one corpus record, with the rules (and report layout) of the native
// runner's record_check.cc: rows as tab-joined FormatValue texts, "(empty)" for an empty string,
// unordered records sorted as byte strings on both sides, types compared when the record names
// them, error records matched on the exact message.
import { EMPTY_TEXT, NULL_TEXT, type CorpusRecord } from './test-file.js';
import { checkColumnKind, formatCell } from './format-value.js';

/**
 * What the checker reads of a QueryResult: a structural subset, so the checker needs nothing
 * from the package and its unit tests can hand it a fake.
 */
export interface ResultColumns {
  readonly numRows: number;
  readonly columnTypes: readonly string[];
  column(index: number): ArrayLike<unknown>;
  nullMask(index: number): Uint8Array | null;
}

/** What running a record's SQL gave: a result, or the message of the error it threw. */
export type Outcome = { ok: true; result: ResultColumns } | { ok: false; error: string };

/** The rows of a result as the corpus spells them. */
export function resultRows(result: ResultColumns): string[] {
  const columns = result.columnTypes.map((type, c) => {
    const values = result.column(c);
    checkColumnKind(type, values);
    const mask = result.nullMask(c);
    if (values.length !== result.numRows || (mask !== null && mask.length !== result.numRows)) {
      throw new Error(
        `column ${c} has ${values.length} values and a null mask of ${mask?.length ?? 'none'}, ` +
          `the result has ${result.numRows} rows`,
      );
    }
    return { type, values, mask };
  });
  const rows: string[] = [];
  for (let r = 0; r < result.numRows; ++r) {
    rows.push(
      columns
        .map(({ type, values, mask }) => {
          if (mask !== null && mask[r] !== 0) return NULL_TEXT;
          const text = formatCell(type, values, r);
          return type === 'VARCHAR' && text === '' ? EMPTY_TEXT : text;
        })
        .join('\t'),
    );
  }
  return rows;
}

// std::sort on std::string: byte order of the UTF-8 text, which differs from JS's UTF-16 order
// for characters above U+FFFF. (Either order would do for the verdict; this keeps the report's
// order the same as the native runner's.)
function byteOrder(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

function block(title: string, rows: readonly string[]): string {
  let text = `  ${title} (${rows.length} ${rows.length === 1 ? 'row' : 'rows'}):\n`;
  for (const row of rows) text += `    ${row}\n`;
  return text;
}

/**
 * Null when `outcome` is what `record` expects; otherwise a report of expected vs actual (no
 * file:line prefix), worded as the native runner's.
 */
export function checkRecord(record: CorpusRecord, outcome: Outcome): string | null {
  if (record.kind === 'error') {
    const expected = record.expected.join('\n');
    if (!outcome.ok && outcome.error === expected) return null;
    let report = `  expected the error:\n    ${expected}\n`;
    if (outcome.ok) {
      report += '  but the query succeeded\n';
      report += block('rows', resultRows(outcome.result));
    } else {
      report += `  got the error:\n    ${outcome.error}\n`;
    }
    return report;
  }
  if (!outcome.ok) return `  query failed: ${outcome.error}\n${block('expected', record.expected)}`;
  let expected = [...record.expected];
  let actual = resultRows(outcome.result);
  if (!record.ordered) {
    expected = expected.sort(byteOrder);
    actual = actual.sort(byteOrder);
  }
  const types = [...outcome.result.columnTypes];
  const rowsMatch =
    expected.length === actual.length && expected.every((row, i) => row === actual[i]);
  const typesMatch =
    record.types.length === 0 ||
    (record.types.length === types.length && record.types.every((t, i) => t === types[i]));
  if (rowsMatch && typesMatch) return null;
  let report = '';
  if (!typesMatch) {
    report += `  expected types: ${record.types.join(',')}\n`;
    report += `  actual types:   ${types.join(',')}\n`;
  }
  if (!rowsMatch) {
    if (!record.ordered) report += '  (rows sorted before comparing: the record is unordered)\n';
    report += block('expected', expected);
    report += block('actual', actual);
  }
  return report;
}
