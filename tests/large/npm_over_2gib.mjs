// The npm package and a string column of over 2 GiB of text (11.5 M rows, about 2.35 GB, as
// Arrow Utf8 chunks). wasm32's pointer differences are 32-bit (PTRDIFF_MAX = 2^31 - 1), so no
// buffer of the module can hold that text: register() must refuse it with a LaneQLError naming
// the column, and the database must go on answering. A column just under the limit is taken.
//
// Usage: node tests/large/npm_over_2gib.mjs   (make test-large-strings, after build-wasm build-js)
import * as arrow from 'apache-arrow';
import { LaneQL, LaneQLError } from '../../bindings-js/dist/index.js';

const CHUNK = 500_000;
const FILL = 'abcdefghij'.repeat(20);
const value = (i) => `row-${String(i).padStart(9, '0')}-` + FILL.slice(0, 170 + (i % 50));

// An Arrow table of `rows` rows of value(i), and its bytes.
function makeTable(rows) {
  let bytes = 0;
  const chunks = [];
  for (let first = 0; first < rows; first += CHUNK) {
    const values = [];
    for (let i = first; i < Math.min(rows, first + CHUNK); i++) {
      values.push(value(i));
      bytes += values[values.length - 1].length;
    }
    chunks.push(arrow.vectorFromArray(values, new arrow.Utf8()));
  }
  return { table: new arrow.Table({ s: chunks[0].concat(...chunks.slice(1)) }), bytes };
}

function fail(message) {
  console.error(`npm over 2 GiB: ${message}`);
  process.exit(1);
}

const db = await LaneQL.create({ flavour: 'simd128' });
try {
  let { table, bytes } = makeTable(11_500_000);
  if (bytes <= 2 ** 31) fail(`only ${bytes} bytes of text`);
  try {
    db.register('t', table);
    fail('register() took a column of over 2 GiB of text');
  } catch (e) {
    if (!(e instanceof LaneQLError) || !e.message.includes("column 's'")) fail(`unexpected error: ${e}`);
    console.log(`npm over 2 GiB: ${bytes.toLocaleString('en')} bytes refused: ${e.message}`);
  }
  table = null;
  // Still usable, and a column of 1.5 GB of text (7 M rows) registers and answers.
  ({ table, bytes } = makeTable(7_000_000));
  db.register('t', table);
  table = null;
  const row = db.query('SELECT count(*) AS n, sum(strlen(s)) AS b, max(s) AS hi FROM t').toArray()[0];
  const got = [row.n, row.b, row.hi].map(String);
  const want = [7_000_000, bytes, value(6_999_999)].map(String);
  if (JSON.stringify(got) !== JSON.stringify(want)) fail(`got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
  console.log(`npm under 2 GiB: ${bytes.toLocaleString('en')} bytes of text registered and answered`);
} finally {
  db.close();
}
