// Answers of the wasm engines in the value kinds compare.mjs compares: laneql-wasm's Result
// (laneqlRows) and duckdb-wasm's Arrow tables and batches (arrowRows), for bench/wasm/engine.mjs
// (ClickBench) and bench/tpch/wasm_engine.mjs (TPC-H); and the check of one against duckdb-wasm.

import { checkAgainstFullAnswer, quickVerdict, FLOAT_TYPES } from './compare.mjs';

export const INTEGER_TYPES = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT',
  'USMALLINT', 'UINTEGER', 'UBIGINT', 'UHUGEINT']);

export function laneqlValue(type, v) {
  if (INTEGER_TYPES.has(type)) return BigInt(v);
  if (type === 'DATE') return { d: BigInt(v) };
  if (type === 'TIMESTAMP') return { ts: BigInt(v) };
  if (type === 'TIMESTAMP_S') return { ts: BigInt(v) * 1000000n };
  if (type === 'BOOLEAN') return v !== 0;
  return v; // FLOAT, DOUBLE: number; VARCHAR: string
}

export function laneqlRows(result) {
  const columns = result.columnNames.map((_, i) => ({
    type: result.columnTypes[i], values: result.column(i), mask: result.nullMask(i),
  }));
  const rows = [];
  for (let r = 0; r < result.numRows; r++) {
    rows.push(columns.map(({ type, values, mask }) =>
      (mask && mask[r]) || values[r] === null ? null : laneqlValue(type, values[r])));
  }
  return rows;
}

/** `arrow`: the apache-arrow module duckdb-wasm uses (bench/wasm/node_modules).
 *  A converter from what apache-arrow's Vector.get returns to a normalized value, and the type's
 *  name as DuckDB's (for the float columns of the check). */
export function arrowColumn(arrow, type) {
  const T = arrow.Type;
  switch (type.typeId) {
    case T.Int:
      return { name: type.bitWidth === 64 ? 'BIGINT' : 'INTEGER', conv: (v) => BigInt(v) };
    case T.Float:
      return { name: 'DOUBLE', conv: (v) => v };
    case T.Decimal:
      // (apache-arrow 17's bigNumToBigInt returns a string for 128-bit values: go through text)
      if (type.scale === 0) return { name: 'HUGEINT', conv: (v) => BigInt(arrow.util.bigNumToString(v)) };
      return { name: 'DOUBLE', conv: (v) => Number(arrow.util.bigNumToString(v)) / 10 ** type.scale };
    case T.Date:
      return { name: 'DATE', conv: (ms) => ({ d: BigInt(Math.round(ms / 86400000)) }) };
    case T.Timestamp: // apache-arrow 17 gives milliseconds (a fraction for micro-seconds)
      return { name: 'TIMESTAMP', conv: (ms) => ({ ts: BigInt(Math.round(ms * 1000)) }) };
    case T.Bool:
      return { name: 'BOOLEAN', conv: (v) => v };
    case T.Utf8:
    case T.LargeUtf8:
      return { name: 'VARCHAR', conv: (v) => v };
    default:
      return { name: String(type), conv: (v) => String(v) };
  }
}

export function arrowRows(arrow, batchOrTable) {
  const fields = batchOrTable.schema.fields;
  const columns = fields.map((f, i) => ({ vector: batchOrTable.getChildAt(i), ...arrowColumn(arrow, f.type) }));
  const rows = [];
  for (let r = 0; r < batchOrTable.numRows; r++) {
    rows.push(columns.map(({ vector, conv }) => {
      if (!vector.isValid(r)) return null;
      const v = vector.get(r);
      return v === null ? null : conv(v);
    }));
  }
  return { rows, names: fields.map((f) => f.name), types: columns.map((c) => c.name) };
}

/** Whether an error leaves the wasm module unusable (a trap or an Emscripten abort): the
 *  benchmark then restarts that engine's process. */
export function isFatal(error) {
  return error instanceof WebAssembly.RuntimeError ||
    /abort|unreachable|memory access out of bounds/i.test(String(error?.message));
}

/** Is `got` (laneql-wasm's normalized answer: rows, names, types) an answer DuckDB could have
 *  given? `own`: duckdb-wasm's answer; `shape`: the query's (compare.mjs's QueryShape); `conn`:
 *  the duckdb-wasm connection, asked for its full ordered answer when the quick check fails. */
export async function checkWithDuckdbWasm(arrow, conn, shape, got, own) {
  const floatColumns = new Set();
  got.types.forEach((t, i) => FLOAT_TYPES.has(t) && floatColumns.add(i));
  own.types.forEach((t, i) => FLOAT_TYPES.has(t) && floatColumns.add(i));
  if (got.names.length !== own.names.length) {
    return { verdict: 'MISMATCH', problem: `${got.names.length} columns, DuckDB ${own.names.length}` };
  }
  if (quickVerdict(got.rows, own.rows, shape, floatColumns) === 'same') return { verdict: 'ok', problem: null };
  const { sql: fullSql, keyPlaces, extraCount } = shape.fullAnswerSql(own.names);
  const reader = await conn.send(fullSql, true);
  let width = null;
  async function* batches() {
    for await (const batch of reader) {
      width ??= batch.numCols - extraCount;
      yield arrowRows(arrow, batch).rows;
    }
  }
  const iterator = batches();
  const firstBatch = await iterator.next();
  width ??= own.names.length;
  async function* all() {
    if (!firstBatch.done) yield firstBatch.value;
    yield* iterator;
  }
  const { problem, ties } = await checkAgainstFullAnswer(got.rows, shape, all(), keyPlaces, width, floatColumns);
  try {
    await iterator.return();
    conn.cancelSent();
  } catch {
    // the stream may already be done
  }
  if (problem) return { verdict: 'MISMATCH', problem };
  return { verdict: 'ok (ties)', problem: null, ties };
}
