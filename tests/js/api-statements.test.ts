// Statements through the package: several in one query() (the last one answers), tables made
// in SQL queryable afterwards, joins and subqueries, in the synchronous and the Worker API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaneQL, LaneQLError, type Flavour } from '../../bindings-js/dist/index.js';
import { NODE_FLAVOURS } from './flavours.js';

const SCRIPT =
  "CREATE TABLE people AS SELECT * FROM (VALUES (1, 'ann', 10), (2, 'bob', 20), (3, 'cid', NULL)) v(id, name, team);\n" +
  "CREATE TABLE teams (id INTEGER, title VARCHAR);\n" +
  "INSERT INTO teams VALUES (10, 'red'), (20, 'blue');\n" +
  'SELECT count(*) AS n FROM people';
const JOIN =
  'SELECT p.name, t.title FROM people p LEFT JOIN teams t ON p.team = t.id ' +
  "WHERE p.id IN (SELECT id FROM people WHERE id < 4) AND NOT EXISTS (SELECT * FROM teams u WHERE u.id = p.team AND u.title = 'green') " +
  'ORDER BY p.id';
const JOIN_ROWS = [
  { name: 'ann', title: 'red' },
  { name: 'bob', title: 'blue' },
  { name: 'cid', title: null },
];

describe.each(NODE_FLAVOURS)('flavour %s: statements', (flavour: Flavour) => {
  let db: LaneQL;
  let worker: Awaited<ReturnType<typeof LaneQL.createWorker>>;
  beforeAll(async () => {
    [db, worker] = await Promise.all([LaneQL.create({ flavour }), LaneQL.createWorker({ flavour })]);
  });
  afterAll(async () => {
    db.close();
    await worker.close();
  });

  it('runs a script, answering with its last statement, and keeps the tables it made', () => {
    expect(db.query(SCRIPT).toArray()).toEqual([{ n: 3n }]);
    expect(db.query(JOIN).toArray()).toEqual(JOIN_ROWS);
    expect(db.query('SHOW TABLES').toArray()).toEqual([{ name: 'people' }, { name: 'teams' }]);
    expect(db.query('INSERT INTO teams VALUES (30, \'green\')').toArray()).toEqual([{ Count: 1n }]);
    expect(db.query('SELECT count(*) AS n FROM teams').toArray()).toEqual([{ n: 3n }]);
  });

  it('stops at the first failing statement and says where it is', () => {
    let caught: unknown;
    try {
      db.query('CREATE TABLE z (a INTEGER);\nSELECT nope FROM z; DROP TABLE z');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(LaneQLError);
    expect((caught as LaneQLError).line).toBe(2);
    expect((caught as LaneQLError).column).toBe(8);
    expect(db.query('SELECT count(*) AS n FROM z').toArray()).toEqual([{ n: 0n }]);  // not dropped
  });

  it('does the same in a Worker', async () => {
    expect((await worker.query(SCRIPT)).toArray()).toEqual([{ n: 3n }]);
    expect((await worker.query(JOIN)).toArray()).toEqual(JOIN_ROWS);
  });
});
