// The result check of the wasm benchmark: is laneql-wasm's answer one duckdb-wasm could have
// given? The same rules as tests/diff/diff_compare.py (the native differential test), in JS:
//  - values: integers exact, floats to 1e-9 relative (NaN = NaN), strings byte for byte, dates
//    and timestamps as values (a DATE never equals a TIMESTAMP);
//  - no ORDER BY: rows are a multiset;
//  - ORDER BY ... LIMIT/OFFSET: the answer is checked against DuckDB's full ordered answer (the
//    query without LIMIT/OFFSET, ORDER BY keys that are not selected appended to the select list)
//    cut into tie groups of equal keys: groups inside the window must match exactly (any order
//    within a group), the partly covered groups at the window's ends accept any of their rows.
// Values are normalized first (engine.mjs): null, bigint (every integer type), number (FLOAT,
// DOUBLE, DECIMAL with a scale), string, boolean, { d: days } (DATE), { ts: micros } (TIMESTAMP).

export const FLOAT_REL_TOLERANCE = 1e-9;
export const FLOAT_TYPES = new Set(['FLOAT', 'DOUBLE', 'REAL']);

// --- Splitting a SELECT into the parts the window check needs ---------------------------------

/** [start, end, WORD] for every word (and top-level ',') outside quotes and parentheses. */
function topLevelTokens(sql) {
  const out = [];
  let depth = 0;
  let i = 0;
  const isWord = (ch) => /[A-Za-z0-9_]/.test(ch);
  while (i < sql.length) {
    const ch = sql[i];
    if (ch === "'" || ch === '"') {
      let end = i + 1;
      while (end < sql.length) {
        if (sql[end] === ch) {
          if (sql[end + 1] === ch) {
            end += 2;
            continue;
          }
          break;
        }
        end += 1;
      }
      i = end + 1;
    } else if (ch === '(') {
      depth += 1;
      i += 1;
    } else if (ch === ')') {
      depth -= 1;
      i += 1;
    } else if (isWord(ch)) {
      let end = i;
      while (end < sql.length && isWord(sql[end])) end += 1;
      if (depth === 0) out.push([i, end, sql.slice(i, end).toUpperCase()]);
      i = end;
    } else {
      if (ch === ',' && depth === 0) out.push([i, i + 1, ',']);
      i += 1;
    }
  }
  return out;
}

function splitTopLevelCommas(text) {
  const pieces = [];
  let start = 0;
  for (const [begin, , word] of topLevelTokens(text)) {
    if (word === ',') {
      pieces.push(text.slice(start, begin).trim());
      start = begin + 1;
    }
  }
  pieces.push(text.slice(start).trim());
  return pieces.filter((p) => p.length > 0);
}

/** Spelling-insensitive form of an expression: no spaces, lower case. */
export function normalizeExpr(text) {
  return text.replace(/\s+/g, '').toLowerCase();
}

/** The SELECT list, ORDER BY keys, LIMIT and OFFSET of a one-statement SELECT. */
export class QueryShape {
  constructor(sql) {
    this.sql = sql.trim().replace(/;\s*$/, '').trim();
    const tokens = topLevelTokens(this.sql);
    if (tokens.length === 0 || tokens[0][2] !== 'SELECT') throw new Error(`not a SELECT: ${sql.slice(0, 60)}`);
    const position = (word, after) => {
      for (let k = 0; k < tokens.length; k++) {
        if (tokens[k][2] !== word) continue;
        if (after === undefined || (k + 1 < tokens.length && tokens[k + 1][2] === after)) return k;
      }
      return null;
    };
    const fromK = position('FROM');
    const orderK = position('ORDER', 'BY');
    const limitK = position('LIMIT');
    const offsetK = position('OFFSET');
    const selectEnd = fromK !== null ? tokens[fromK][0] : this.sql.length;
    this.selectItems = splitTopLevelCommas(this.sql.slice(tokens[0][1], selectEnd)).map((item) => {
      const m = /^([\s\S]*\S)\s+AS\s+([A-Za-z_][A-Za-z0-9_]*)$/i.exec(item);
      return m ? [m[1], m[2]] : [item, null];
    });
    const tailStarts = [limitK, offsetK].filter((k) => k !== null).map((k) => tokens[k][0]);
    const tailStart = tailStarts.length ? Math.min(...tailStarts) : this.sql.length;
    this.orderKeys = [];
    if (orderK !== null) {
      const orderText = this.sql.slice(tokens[orderK + 1][1], tailStart);
      for (let key of splitTopLevelCommas(orderText)) {
        key = key.replace(/\s+NULLS\s+(FIRST|LAST)\s*$/i, '').replace(/\s+(ASC|DESC)\s*$/i, '');
        this.orderKeys.push(key.trim());
      }
    }
    const numberAfter = (k) => {
      if (k === null) return null;
      if (k + 1 >= tokens.length || !/^\d+$/.test(tokens[k + 1][2])) {
        throw new Error(`LIMIT/OFFSET without a number literal: ${this.sql.slice(0, 60)}`);
      }
      return Number(tokens[k + 1][2]);
    };
    this.limit = numberAfter(limitK);
    this.offset = numberAfter(offsetK) ?? 0;
    this.withoutLimit = this.sql.slice(0, tailStart).trimEnd();
  }

  /** DuckDB SQL for the ordered answer without LIMIT/OFFSET, and where each ORDER BY key is in
   *  its rows: ['out', column] for an output column, ['extra', j] for one appended to the select
   *  list (ORDER BY a column that is not selected). */
  fullAnswerSql(outputNames) {
    const keyPlaces = [];
    const extras = [];
    const aliases = this.selectItems.map(([, a]) => (a ? normalizeExpr(a) : null));
    const exprs = this.selectItems.map(([e]) => normalizeExpr(e));
    const star = exprs.length === 1 && exprs[0] === '*';
    const lowered = outputNames.map((n) => n.toLowerCase());
    for (const key of this.orderKeys) {
      const norm = normalizeExpr(key);
      if (aliases.includes(norm)) keyPlaces.push(['out', aliases.indexOf(norm)]);
      else if (!star && exprs.includes(norm)) keyPlaces.push(['out', exprs.indexOf(norm)]);
      else if (/^\d+$/.test(norm)) keyPlaces.push(['out', Number(norm) - 1]);
      else if (star && lowered.includes(norm)) keyPlaces.push(['out', lowered.indexOf(norm)]);
      else {
        keyPlaces.push(['extra', extras.length]);
        extras.push(key);
      }
    }
    let sql = this.withoutLimit;
    if (extras.length) {
      const fromAt = topLevelTokens(sql).find(([, , w]) => w === 'FROM')[0];
      const added = extras.map((e, j) => `, ${e} AS __bench_key_${j}`).join('');
      sql = `${sql.slice(0, fromAt).trimEnd()}${added} ${sql.slice(fromAt)}`;
    }
    return { sql, keyPlaces, extraCount: extras.length };
  }
}

// --- Values ------------------------------------------------------------------------------------

const isTemporal = (v) => typeof v === 'object' && v !== null;

export function valuesMatch(a, b) {
  if (a === null || b === null) return a === null && b === null;
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  if (typeof a === 'bigint' && typeof b === 'bigint') return a === b;
  const numeric = (v) => typeof v === 'bigint' || typeof v === 'number';
  if (numeric(a) && numeric(b)) {
    const x = Number(a);
    const y = Number(b);
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) && Number.isNaN(y);
    if (x === y) return true;
    return Math.abs(x - y) <= FLOAT_REL_TOLERANCE * Math.max(Math.abs(x), Math.abs(y));
  }
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (isTemporal(a) && isTemporal(b)) {
    if ('d' in a) return 'd' in b && a.d === b.d;
    return 'ts' in b && a.ts === b.ts;
  }
  return false;
}

export function rowsMatch(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!valuesMatch(a[i], b[i])) return false;
  return true;
}

/** The exact part of a row, as a string: float columns (and any float value) left out. */
function bucketKey(row, floatColumns) {
  let key = '';
  for (let i = 0; i < row.length; i++) {
    const v = row[i];
    if (floatColumns.has(i) || typeof v === 'number') key += '~\u0001';
    else if (v === null) key += 'N\u0001';
    else if (typeof v === 'bigint') key += `i${v}\u0001`;
    else if (typeof v === 'string') key += `s${JSON.stringify(v)}\u0001`;
    else if (typeof v === 'boolean') key += `b${v}\u0001`;
    else if ('d' in v) key += `d${v.d}\u0001`;
    else key += `t${v.ts}\u0001`;
  }
  return key;
}

/** A pool of rows that others are paired with one to one (value match). */
class RowPool {
  constructor(rows, floatColumns) {
    this.floatColumns = floatColumns;
    this.buckets = new Map();
    this.size = 0;
    for (const row of rows) this.add(row);
  }

  add(row) {
    const key = bucketKey(row, this.floatColumns);
    let list = this.buckets.get(key);
    if (!list) this.buckets.set(key, (list = []));
    list.push(row);
    this.size += 1;
  }

  /** Removes and returns a row matching `row`, or null. */
  take(row) {
    const list = this.buckets.get(bucketKey(row, this.floatColumns));
    if (!list) return null;
    for (let k = 0; k < list.length; k++) {
      if (rowsMatch(row, list[k])) {
        this.size -= 1;
        return list.splice(k, 1)[0];
      }
    }
    return null;
  }

  remaining() {
    return [...this.buckets.values()].flat();
  }
}

/** The rows of `sub` that cannot be paired one to one with rows of `whole`. */
export function unmatchedRows(sub, whole, floatColumns) {
  const pool = new RowPool(whole, floatColumns);
  return sub.filter((row) => pool.take(row) === null);
}

/** Start index of each run of equal keys. */
export function tieGroups(keys) {
  const starts = [];
  for (let i = 0; i < keys.length; i++) if (i === 0 || !rowsMatch(keys[i], keys[i - 1])) starts.push(i);
  return starts;
}

export function short(value, width = 120) {
  const text = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  return text.length <= width ? text : `${text.slice(0, width - 3)}...`;
}

/** Checks `got` against DuckDB's ordered answer (rows and their ORDER BY keys, from the start
 *  through at least the end of the tie group holding the window's last row; `complete`: all of
 *  them). Returns null when `got` is an answer DuckDB could have given, else what is wrong. */
export function checkWindow(got, fullRows, fullKeys, offset, limit, complete, floatColumns) {
  const end = limit === null ? fullRows.length : Math.min(fullRows.length, offset + limit);
  const expected = Math.max(0, end - offset);
  if (got.length !== expected) {
    const more = complete || limit === null ? '' : 'at least ';
    return `${got.length} rows, DuckDB ${more}${expected}`;
  }
  if (expected === 0) return null;
  const starts = [...tieGroups(fullKeys), fullRows.length];
  let g = 0;
  while (starts[g + 1] <= offset) g += 1;
  let position = offset;
  while (position < end) {
    const groupBegin = starts[g];
    const groupEnd = starts[g + 1];
    const take = Math.min(groupEnd, end) - position;
    const part = got.slice(position - offset, position - offset + take);
    const missing = unmatchedRows(part, fullRows.slice(groupBegin, groupEnd), floatColumns);
    if (missing.length) {
      const what = groupEnd - groupBegin === fullRows.length
        ? 'answer'
        : `tie group of ${groupEnd - groupBegin} rows (key ${short(fullKeys[groupBegin])})`;
      return `rows ${position - offset}..${position - offset + take - 1}: ${missing.length} not in DuckDB's ${what} (e.g. ${short(missing[0])})`;
    }
    position += take;
    g += 1;
  }
  return null;
}

/**
 * The whole check, given DuckDB's full ordered answer as an async iterator of row batches (rows
 * of output columns followed by the extra key columns, normalized). Keeps at most `cap` rows:
 * when the tie group holding the window's end is larger (e.g. ORDER BY c DESC LIMIT 10 where
 * a million groups have c = 1), laneql's rows in that group are paired with the group's rows as
 * they stream by instead. Returns { problem: string | null, ties: boolean }.
 */
export async function checkAgainstFullAnswer(got, shape, batches, keyPlaces, width, floatColumns, cap = 200000) {
  const need = shape.limit === null ? null : shape.offset + shape.limit;
  const rows = [];
  const keys = [];
  const keyOf = (r) => keyPlaces.map(([kind, c]) => (kind === 'out' ? r[c] : r[width + c]));
  let complete = true;
  let streaming = null; // { groupBegin, groupKey, pool } once the last window group overflows cap
  outer: for await (const batch of batches) {
    for (const r of batch) {
      const key = keyOf(r);
      const row = r.slice(0, width);
      if (streaming) {
        if (!rowsMatch(key, streaming.groupKey)) break outer; // the group ended
        streaming.pool.take(row);
        if (streaming.pool.size === 0) break outer; // every laneql row of the group found
        continue;
      }
      rows.push(row);
      keys.push(key);
      if (need !== null && rows.length > need && (need === 0 || !rowsMatch(keys[need - 1], key))) {
        complete = false;
        break outer;
      }
      if (need !== null && rows.length >= cap && rows.length >= need && need > 0) {
        // The group holding row need-1 runs on past `cap` rows: pair laneql's rows in it with
        // the group's rows as they come.
        let groupBegin = need - 1;
        while (groupBegin > 0 && rowsMatch(keys[groupBegin - 1], keys[need - 1])) groupBegin -= 1;
        const partBegin = Math.max(groupBegin, shape.offset) - shape.offset;
        if (got.length !== shape.limit) {
          return { problem: `${got.length} rows, DuckDB at least ${shape.limit}`, ties: false };
        }
        const pool = new RowPool(got.slice(partBegin), floatColumns);
        for (let i = groupBegin; i < rows.length && pool.size > 0; i++) pool.take(rows[i]);
        streaming = { groupBegin, groupKey: keys[need - 1], pool, partBegin };
        if (pool.size === 0) break outer;
      }
    }
  }
  if (!streaming) {
    const problem = checkWindow(got, rows, keys, shape.offset, shape.limit, complete, floatColumns);
    return { problem, ties: false };
  }
  const { groupBegin, pool, partBegin } = streaming;
  if (pool.size > 0) {
    const missing = pool.remaining();
    return {
      problem: `rows ${partBegin}..${got.length - 1}: ${missing.length} not in DuckDB's tie group of over ${cap} rows (key ${short(streaming.groupKey)}) (e.g. ${short(missing[0])})`,
      ties: true,
    };
  }
  // The window before the big group: its groups are complete in `rows`.
  if (groupBegin > shape.offset) {
    const front = got.slice(0, groupBegin - shape.offset);
    const problem = checkWindow(front, rows.slice(0, groupBegin), keys.slice(0, groupBegin),
      shape.offset, groupBegin - shape.offset, true, floatColumns);
    if (problem) return { problem, ties: true };
  }
  return { problem: null, ties: true };
}

/** Quick verdict from the two LIMITed answers alone: 'same' (equal in order, or as multisets when
 *  the query has no ORDER BY and no LIMIT), else null (the full-answer check decides). */
export function quickVerdict(got, own, shape, floatColumns) {
  if (got.length === own.length && got.every((r, i) => rowsMatch(r, own[i]))) return 'same';
  if (shape.orderKeys.length === 0 && shape.limit === null && got.length === own.length &&
      unmatchedRows(got, own, floatColumns).length === 0) return 'same';
  return null;
}

/** A value no sane answer holds next to the others (for --self-check: the check must reject a
 *  wrong answer): integers and dates moved far, floats scaled, strings extended. */
export function mutated(v) {
  if (v === null) return 123456789n;
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'bigint') return v + 1000000000007n;
  if (typeof v === 'number') return Number.isFinite(v) ? v * 1.5 + 1 : 0;
  if (typeof v === 'string') return `${v}\u0000mutated`;
  if ('d' in v) return { d: v.d + 1000n };
  return { ts: v.ts + 86400000000000n };
}

/** Wrong variants of a non-empty answer: each value of its first row changed, its last row
 *  dropped. (Repeating a row is not always wrong: tie groups may hold equal rows.) */
export function* mutations(rows) {
  for (let c = 0; c < rows[0].length; c++) {
    const first = [...rows[0]];
    first[c] = mutated(first[c]);
    yield [`column ${c} of row 0 changed`, [first, ...rows.slice(1)]];
  }
  yield ['last row dropped', rows.slice(0, -1)];
}
