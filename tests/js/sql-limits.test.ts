// The SQL size limits in wasm, whose stacks are small (5 MiB on the main thread, 2 MiB in a
// pthread): the deepest and longest SQL the parser accepts must also bind, plan and run there,
// and anything past the limits must fail with a LaneQLError that names the limit and where.
import { describe, expect, it } from 'vitest';
import { LaneQLError } from '../../bindings-js/dist/index.js';
import { NODE_FLAVOURS, useLaneQL } from './flavours.js';

/** The error a query throws (fails the test if it does not throw one). */
function queryError(run: () => unknown): LaneQLError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(LaneQLError);
    return error as LaneQLError;
  }
  throw new Error('the query did not fail');
}

describe.each(NODE_FLAVOURS)('flavour %s: SQL limits', (flavour) => {
  const db = useLaneQL({ flavour });

  it('runs the deepest nesting the parser accepts', () => {
    db().register('t', { a: new Int32Array([1, 2, 3]), s: ['x', 'Y', 'z'] });
    // The select item is level 1: 254 more parentheses, calls or CASEs are the most allowed
    // (kMaxNestingDepth = 256 in kernel/src/sql/parser.h).
    const depth = 254;
    const parens = `${'('.repeat(depth)}a + 1${')'.repeat(depth)}`;
    const calls = `${'upper('.repeat(depth)}s${')'.repeat(depth)}`;
    const cases = `${'CASE WHEN a > 0 THEN '.repeat(depth)}a${' END'.repeat(depth)}`;
    const rows = db().query(`SELECT ${parens} AS p, ${calls} AS c, ${cases} AS k FROM t ORDER BY a`).toArray();
    expect(rows).toEqual([
      { p: 2, c: 'X', k: 1 },
      { p: 3, c: 'Y', k: 2 },
      { p: 4, c: 'Z', k: 3 },
    ]);
  });

  it('runs the highest operator chain the parser accepts', () => {
    db().register('t', { a: new Int32Array([1, 2, 3, 500, 997, 998]) });
    // Height: 996 ORs over comparisons (each 2 high) is 998; kMaxExpressionHeight is 1000.
    const ors = Array.from({ length: 997 }, (_, i) => `a = ${i + 1}`).join(' OR ');
    expect(db().query(`SELECT count(*) AS n FROM t WHERE ${ors}`).toArray()).toEqual([{ n: 5n }]);
    const sum = Array.from({ length: 990 }, () => 'a').join(' + ');
    const summed = db().query(`SELECT ${sum} AS s FROM t WHERE a = 2`).toArray();
    expect(summed).toEqual([{ s: 1980 }]); // INTEGER + INTEGER stays INTEGER, as in DuckDB
    // In a grouped query the binder matches every subtree against the group keys.
    const grouped = db().query(`SELECT a, ${sum} AS s FROM t GROUP BY a ORDER BY ${sum} DESC LIMIT 1`);
    expect(grouped.toArray()).toEqual([{ a: 998, s: 988020 }]);
  });

  it('rejects deeper nesting and higher chains with the limit and where', () => {
    db().register('t', { a: new Int32Array([1]) });
    const parens = queryError(() => db().query(`SELECT ${'('.repeat(100000)}a FROM t`));
    expect(parens.message).toMatch(/^syntax error at line 1, column 264: expression nested too deeply: more than 256 levels/);
    expect([parens.line, parens.column]).toEqual([1, 264]);
    const nots = queryError(() => db().query(`SELECT a FROM t WHERE ${'NOT '.repeat(100000)}a = 1`));
    expect(nots.message).toMatch(/expression nested too deeply: more than 256 levels/);
    const ors = queryError(() => db().query(`SELECT a FROM t WHERE a = 0${' OR a = 1'.repeat(100000)}`));
    expect(ors.message).toMatch(/expression too deep: more than 1000 levels of operators/);
    expect(ors.line).toBe(1);
  });

  it('rejects SQL longer than 1 MiB, at the first byte past the limit', () => {
    db().register('t', { a: new Int32Array([1]) });
    // 1.2 MB; byte 1,048,576 (0-based) is the first of line 349,524.
    const padding = 'a,\n'.repeat(400000);
    const error = queryError(() => db().query(`SELECT ${padding}a FROM t`));
    expect(error.message).toMatch(/SQL text too long: 1200015 bytes, more than the limit of 1048576 bytes/);
    expect([error.line, error.column]).toEqual([349524, 1]);
  });
});
