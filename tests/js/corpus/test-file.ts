// The SQL corpus file format (tests/sql/README.md), parsed exactly as the native runner parses it
// (tests/sql/runner/test_file.cc): same rules, same "path:line: what" messages, so a file the
// native runner rejects is rejected here too, and the two runners can never disagree about
// what a file says. No engine here: tables become values in table-builder.ts.

/** Spellings of special values in table rows and expected rows. */
export const NULL_TEXT = 'NULL';
export const EMPTY_TEXT = '(empty)';

/** The column types an inline table may declare (those both DuckDB and laneql have). */
export const INLINE_TYPES = [
  'TINYINT',
  'SMALLINT',
  'INTEGER',
  'BIGINT',
  'UTINYINT',
  'USMALLINT',
  'UINTEGER',
  'UBIGINT',
  'FLOAT',
  'DOUBLE',
  'DATE',
  'TIMESTAMP',
  'VARCHAR',
  'BOOLEAN',
] as const;
export type InlineType = (typeof INLINE_TYPES)[number];

export interface InlineColumn {
  name: string;
  type: InlineType;
}

/** `table name(col TYPE, ...)` and its rows of '|'-separated values. */
export interface InlineTable {
  line: number;
  name: string;
  columns: InlineColumn[];
  /** One value per column; null is NULL, "(empty)" already became "". */
  rows: (string | null)[][];
  /** The file line of each row, for messages about its values. */
  rowLines: number[];
}

/** `hits rows=N seed=S`: laneql's generated ClickBench table, registered as "hits". */
export interface HitsTable {
  line: number;
  rows: number;
  seed: number;
}

export interface QueryRecord {
  kind: 'query';
  /** The line of the `query` header. */
  line: number;
  /** `query ordered`: the row order is part of the expectation; unordered rows are sorted. */
  ordered: boolean;
  /** Expected DuckDB type names, one per column; empty when the header names none. */
  types: string[];
  sql: string;
  /** Expected rows as written: values separated by tabs. */
  expected: string[];
}

export interface ErrorRecord {
  kind: 'error';
  line: number;
  /** `error unsupported`: checked the same way; the word only documents why laneql rejects it. */
  unsupported: boolean;
  sql: string;
  /** The expected message, one entry per line. */
  expected: string[];
}

export type CorpusRecord = QueryRecord | ErrorRecord;

export interface TestFile {
  path: string;
  tables: InlineTable[];
  hits: HitsTable | null;
  records: CorpusRecord[];
}

/** A malformed corpus file; the message is "path:line: what is wrong", as the native runner's. */
export class CorpusFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorpusFormatError';
  }
}

// The native Trim: spaces and tabs only (a value may hold other whitespace).
function trim(s: string): string {
  return s.replace(/^[ \t]+|[ \t]+$/g, '');
}

// ASCII letters, digits and '_', not starting with a digit (std::isalnum in the "C" locale).
// A record's type list: comma-separated, but not inside parentheses (DECIMAL(15,2)).
function splitTypes(s: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '(') depth++;
    if (s[i] === ')') depth--;
    if (s[i] === ',' && depth === 0) {
      parts.push(s.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(s.slice(start));
  return parts;
}

function isIdentifier(s: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(s);
}

// Space-separated words: split on ' ' only, then trimmed (so a tab does not separate words).
function words(s: string): string[] {
  return s
    .split(' ')
    .map(trim)
    .filter((w) => w !== '');
}

// The native ParseUnsigned: 1..19 ASCII digits (fits uint64). Numbers here are row counts and
// seeds, which the package takes as JS numbers, so the value is kept as a bigint until the caller
// decides it fits.
function parseUnsigned(text: string): bigint | null {
  if (text.length === 0 || text.length > 19 || !/^[0-9]+$/.test(text)) return null;
  return BigInt(text);
}

function isInlineType(type: string): type is InlineType {
  return (INLINE_TYPES as readonly string[]).includes(type);
}

class Parser {
  private readonly lines: string[];
  private next = 0;
  private readonly tableNames = new Set<string>();
  private readonly out: TestFile;

  constructor(
    private readonly path: string,
    text: string,
  ) {
    // std::getline: a final '\n' ends the last line rather than starting an empty one; a '\r'
    // before '\n' is dropped.
    const lines = text.split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    this.lines = lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
    this.out = { path, tables: [], hits: null, records: [] };
  }

  parse(): TestFile {
    while (this.next < this.lines.length) {
      const line = this.lines[this.next]!;
      if (trim(line) === '' || line[0] === '#') {
        ++this.next;
        continue;
      }
      const w = words(line);
      const directive = w[0]!;
      if (directive === 'table') {
        this.parseTable();
      } else if (directive === 'hits') {
        this.parseHits(w);
      } else if (directive === 'query' || directive === 'error') {
        this.parseRecord(w);
      } else {
        this.fail(
          this.next,
          `unknown directive '${directive}' (expected table, hits, query or error)`,
        );
      }
    }
    if (this.out.records.length === 0) {
      throw new CorpusFormatError(`${this.path}: the file has no records`);
    }
    return this.out;
  }

  private fail(index: number, message: string): never {
    throw new CorpusFormatError(`${this.path}:${index + 1}: ${message}`);
  }

  private atBlockEnd(): boolean {
    return this.next >= this.lines.length || trim(this.lines[this.next]!) === '';
  }

  // Table names are unique case-insensitively, as SQL names them.
  private claimTableName(name: string, index: number): void {
    const folded = name.toLowerCase();
    if (this.tableNames.has(folded)) this.fail(index, `table '${name}' is declared twice`);
    this.tableNames.add(folded);
  }

  private parseTable(): void {
    const header = this.next++;
    // Like the native parser, the header is cut after the first 5 characters of the raw line.
    const rest = trim(this.lines[header]!.slice(5));
    const open = rest.indexOf('(');
    if (open < 0 || !rest.endsWith(')')) {
      this.fail(header, "expected 'table name(column TYPE, ...)'");
    }
    const name = trim(rest.slice(0, open));
    if (!isIdentifier(name)) this.fail(header, `bad table name '${name}'`);
    this.claimTableName(name, header);
    const table: InlineTable = { line: header + 1, name, columns: [], rows: [], rowLines: [] };
    // substr(open + 1, size - open - 2): between '(' and the final ')'; "t()" gives one empty
    // spec, a bad column, as natively.
    for (const spec of rest.slice(open + 1, Math.max(open + 1, rest.length - 1)).split(',')) {
      const parts = words(spec);
      if (parts.length !== 2 || !isIdentifier(parts[0]!)) {
        this.fail(header, `bad column '${trim(spec)}', expected 'name TYPE'`);
      }
      const type = parts[1]!;
      if (!isInlineType(type)) this.fail(header, `unsupported column type '${type}'`);
      table.columns.push({ name: parts[0]!, type });
    }
    while (!this.atBlockEnd()) {
      const values = this.lines[this.next]!.split('|');
      if (values.length !== table.columns.length) {
        this.fail(
          this.next,
          `row has ${values.length} values, table '${table.name}' has ${table.columns.length} columns`,
        );
      }
      const row: (string | null)[] = [];
      for (const raw of values) {
        const value = trim(raw);
        if (value === NULL_TEXT) {
          row.push(null);
        } else if (value === EMPTY_TEXT) {
          row.push('');
        } else if (value === '') {
          this.fail(this.next, 'empty value: write NULL or (empty)');
        } else {
          row.push(value);
        }
      }
      table.rows.push(row);
      table.rowLines.push(this.next + 1);
      ++this.next;
    }
    this.out.tables.push(table);
  }

  private parseHits(w: string[]): void {
    const header = this.next++;
    if (this.out.hits !== null) this.fail(header, 'hits is declared twice');
    this.claimTableName('hits', header);
    let rows: bigint | null = null;
    let seed = 1n;
    for (const word of w.slice(1)) {
      const eq = word.indexOf('=');
      const key = eq < 0 ? word : word.slice(0, eq);
      const value = eq < 0 ? null : parseUnsigned(word.slice(eq + 1));
      if (value === null) this.fail(header, `expected key=number, got '${word}'`);
      if (key === 'rows') {
        rows = value;
      } else if (key === 'seed') {
        seed = value;
      } else {
        this.fail(header, `unknown hits option '${key}'`);
      }
    }
    if (rows === null) this.fail(header, 'hits needs rows=N');
    // The native runner takes any uint64; generateHits() takes JS numbers, so a value past 2^53
    // (never useful for a test table) is refused here rather than silently rounded.
    if (rows > BigInt(Number.MAX_SAFE_INTEGER) || seed > BigInt(Number.MAX_SAFE_INTEGER)) {
      this.fail(header, 'hits rows and seed must be at most 2^53 - 1 in the wasm runner');
    }
    this.out.hits = { line: header + 1, rows: Number(rows), seed: Number(seed) };
  }

  private parseRecord(w: string[]): void {
    const header = this.next++;
    let record: CorpusRecord;
    if (w[0] === 'query') {
      // `tableorder` (the answer follows the tables' rows as written) matters to expect.py only.
      const flags = w.length > 2 && w[2] === 'tableorder' ? 1 : 0;
      if (w.length < 2 || w.length > 3 + flags || (w[1] !== 'ordered' && w[1] !== 'unordered')) {
        this.fail(header, "expected 'query ordered|unordered [tableorder] [TYPE,...]'");
      }
      const types: string[] = [];
      if (w.length === 3 + flags) {
        for (const type of splitTypes(w[2 + flags]!)) {
          // A list is its element's name and "[]" (DOUBLE[], DECIMAL(9,2)[]).
          const element = type.endsWith('[]') ? type.slice(0, -2) : type;
          if (!isIdentifier(element) && !/^DECIMAL\(\d+,\d+\)$/.test(element)) this.fail(header, `bad type name '${type}'`);
          types.push(type);
        }
      }
      record = {
        kind: 'query',
        line: header + 1,
        ordered: w[1] === 'ordered',
        types,
        sql: '',
        expected: [],
      };
    } else {
      if (w.length > 2 || (w.length === 2 && w[1] !== 'unsupported')) {
        this.fail(header, "expected 'error' or 'error unsupported'");
      }
      record = {
        kind: 'error',
        line: header + 1,
        unsupported: w.length === 2,
        sql: '',
        expected: [],
      };
    }
    const sql: string[] = [];
    while (!this.atBlockEnd() && this.lines[this.next] !== '----') {
      sql.push(this.lines[this.next++]!);
    }
    record.sql = sql.join('\n');
    // Natively the SQL is "empty" when its lines join to nothing.
    if (record.sql === '') this.fail(header, 'record has no SQL');
    if (this.atBlockEnd()) this.fail(header, "record has no '----' line after its SQL");
    ++this.next; // ----
    while (!this.atBlockEnd()) record.expected.push(this.lines[this.next++]!);
    if (record.kind === 'error' && record.expected.length === 0) {
      this.fail(header, 'error record has no expected message');
    }
    this.out.records.push(record);
  }
}

/**
 * Parses the text of a corpus file; throws CorpusFormatError ("path:line: what is wrong") on a
 * malformed file, with the native runner's wording.
 */
export function parseTestFile(path: string, text: string): TestFile {
  return new Parser(path, text).parse();
}
