// Running corpus files through the npm package: the wasm counterpart of
// tests/sql/runner/sql_corpus_runner.cc (load, register every table, run every record).
import { readFileSync, readdirSync } from 'node:fs';
import { LaneQLError } from '../../../bindings-js/dist/index.js';
import { checkRecord, type Outcome, type ResultColumns } from './record-check.js';
import { buildInlineTable, type BuiltTable } from './table-builder.js';
import { parseTestFile, type CorpusRecord, type TestFile } from './test-file.js';

/** The part of LaneQL the runner uses (structural, so LaneQL and LaneQLWorker-like fakes fit). */
export interface CorpusDatabase {
  register(name: string, table: BuiltTable): void;
  generateHits(name: string, rows: number, seed?: number): void;
  query(sql: string): ResultColumns;
}

/** The corpus files of `dir` (*.test, not its subfolders), sorted, as the native glob finds them. */
export function corpusFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.test'))
    .map((entry) => entry.name)
    .sort();
}

/** A parsed file with its inline tables already built, so bad values fail before any query. */
export interface LoadedFile {
  file: TestFile;
  tables: { name: string; columns: BuiltTable }[];
}

/**
 * Reads, parses and builds a corpus file; `path` is what messages name. Throws
 * CorpusFormatError ("path:line: ...") for a malformed file or a bad value, as natively.
 */
export function loadFile(path: string, diskPath = path): LoadedFile {
  const file = parseTestFile(path, readFileSync(diskPath, 'utf8'));
  return {
    file,
    tables: file.tables.map((table) => ({
      name: table.name,
      columns: buildInlineTable(path, table),
    })),
  };
}

/** Registers every table of the file before any record runs, as the native RegisterTables. */
export function registerTables(db: CorpusDatabase, loaded: LoadedFile): void {
  for (const { name, columns } of loaded.tables) db.register(name, columns);
  const { hits } = loaded.file;
  if (hits !== null) db.generateHits('hits', hits.rows, hits.seed);
}

/**
 * Runs a record's SQL. Only a LaneQLError is an engine answer to compare with an `error`
 * record; anything else thrown is a bug of the package and propagates as such.
 */
export function runRecord(db: CorpusDatabase, record: CorpusRecord): Outcome {
  try {
    return { ok: true, result: db.query(record.sql) };
  } catch (error) {
    if (error instanceof LaneQLError) return { ok: false, error: error.message };
    throw error;
  }
}

/** The native runner's mismatch report: "path:line: mismatch", the SQL, then what differs. */
export function mismatchReport(path: string, record: CorpusRecord, report: string): string {
  // Continuation lines of the SQL indented under its first, as natively.
  const sql = record.sql.replaceAll('\n', '\n       ');
  return `${path}:${record.line}: mismatch\n  SQL: ${sql}\n${report}`;
}

/**
 * Runs every record of a loaded file on `db` (tables registered here) and returns the native
 * runner's output for it and the number of failed records: used where a whole file's verdict
 * matters (the runner self-tests), where the corpus test checks record by record instead.
 */
export function runWholeFile(
  db: CorpusDatabase,
  path: string,
  loaded: LoadedFile,
): { output: string; failed: number } {
  registerTables(db, loaded);
  let output = '';
  let failed = 0;
  for (const record of loaded.file.records) {
    const report = checkRecord(record, runRecord(db, record));
    if (report !== null) {
      ++failed;
      output += `${mismatchReport(path, record, report)}\n`;
    }
  }
  const { records } = loaded.file;
  output += `${path}: ${records.length - failed} of ${records.length} records passed\n`;
  return { output, failed };
}
