// The SQL corpus (tests/sql/*.test, format in tests/sql/README.md) through the npm package, on
// every flavour Node runs: the same files and the same verdicts as the native runner
// (tests/sql/runner), so the wasm builds answer SQL exactly as native laneql does.
// One test per record, named file:line; one LaneQL per file per flavour, so no file sees
// another's tables and every Worker of the threaded flavour ends with its file.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaneQL } from '../../bindings-js/dist/index.js';
import { checkRecord } from './corpus/record-check.js';
import {
  corpusFiles,
  loadFile,
  mismatchReport,
  registerTables,
  runRecord,
  runWholeFile,
  type LoadedFile,
} from './corpus/runner.js';
import { CorpusFormatError } from './corpus/test-file.js';
import { NODE_FLAVOURS } from './flavours.js';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CORPUS_DIR = 'tests/sql';
const SELFTEST_DIR = 'tests/sql/runner/selftest';

const files = corpusFiles(`${REPO_ROOT}${CORPUS_DIR}`);

describe('the corpus', () => {
  it('has files', () => {
    // A glob that finds nothing must not pass as "every file passed".
    expect(files.length).toBeGreaterThan(0);
  });
});

for (const flavour of NODE_FLAVOURS) {
  describe(`flavour ${flavour}`, () => {
    for (const name of files) {
      const path = `${CORPUS_DIR}/${name}`;
      describe(name, () => {
        // Parsed while collecting, so that every record gets its own test; a malformed file
        // becomes one failing test that carries the parser's "path:line: ..." message.
        let loaded: LoadedFile;
        try {
          loaded = loadFile(path, `${REPO_ROOT}${path}`);
        } catch (error) {
          it(`${name} loads`, () => {
            throw error;
          });
          return;
        }

        let db: LaneQL | undefined;
        beforeAll(async () => {
          db = await LaneQL.create({ flavour });
          registerTables(db, loaded);
        });
        afterAll(() => {
          db?.close();
        });

        for (const record of loaded.file.records) {
          it(`${name}:${record.line}`, () => {
            if (db === undefined) throw new Error('LaneQL was not created');
            const report = checkRecord(record, runRecord(db, record));
            if (report !== null) expect.fail(mismatchReport(path, record, report));
          });
        }
      });
    }
  });
}

// The runner must fail, with the right message, on the broken files and wrong expectations of
// tests/sql/runner/selftest (each names the failure it must cause on its first line,
// "# expect-failure: <regex>"), as the native runner's sql_corpus_selftest tests require.
// A runner that passes everything would otherwise pass the corpus too. One flavour suffices
// (this tests the runner, not the engine): the last, which starts no Workers.
describe('runner self-test', () => {
  const selftests = corpusFiles(`${REPO_ROOT}${SELFTEST_DIR}`);

  it('has files', () => {
    expect(selftests.length).toBeGreaterThan(0);
  });

  for (const name of selftests) {
    it(`fails ${name} as it says`, async () => {
      const path = `${SELFTEST_DIR}/${name}`;
      const diskPath = `${REPO_ROOT}${path}`;
      const firstLine = readFileSync(diskPath, 'utf8').split('\n')[0]!;
      const match = /^# expect-failure: (.+)$/.exec(firstLine);
      if (match === null) throw new Error(`${path}: first line must be '# expect-failure: <regex>'`);
      // CMake's regex '.' matches newlines too; so does the 's' flag.
      const pattern = new RegExp(match[1]!, 's');
      let output: string;
      let failed: boolean;
      try {
        const loaded = loadFile(path, diskPath);
        const db = await LaneQL.create({ flavour: NODE_FLAVOURS[NODE_FLAVOURS.length - 1]! });
        try {
          const run = runWholeFile(db, path, loaded);
          output = run.output;
          failed = run.failed > 0;
        } finally {
          db.close();
        }
      } catch (error) {
        if (!(error instanceof CorpusFormatError)) throw error;
        output = error.message;
        failed = true;
      }
      expect(failed, output).toBe(true);
      expect(output).toMatch(pattern);
    });
  }
});
