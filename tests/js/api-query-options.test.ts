// query(sql, { threads, profile, smallKeyLookup }), QueryResult.elapsedMs / .profile and
// likePrefilterCounts(): what the web demo draws. The options change how a query runs, never its
// answer; the counts agree with SQL and across flavours.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaneQL, type Flavour, type LikePrefilterCounts } from '../../bindings-js/dist/index.js';
import { catchLaneQLError, expectUsable, rejectionOf } from './api-helpers.js';
import { NODE_FLAVOURS } from './flavours.js';

type LaneQLWorker = Awaited<ReturnType<typeof LaneQL.createWorker>>;

const ROWS = 60_000;
const SEED = 7;
const COLUMNS = ['URL', 'AdvEngineID', 'RegionID', 'UserID', 'SearchPhrase'];
const GROUP_SQL = 'SELECT AdvEngineID, COUNT(*) AS c, SUM(RegionID) AS r FROM hits GROUP BY AdvEngineID ORDER BY c DESC, 1';
const WIDE_SQL = 'SELECT RegionID, COUNT(DISTINCT UserID) AS u FROM hits GROUP BY RegionID ORDER BY u DESC, 1 LIMIT 10';

const countsByFlavour = new Map<Flavour, LikePrefilterCounts>();

describe.each(NODE_FLAVOURS)('flavour %s: query options', (flavour: Flavour) => {
  let db: LaneQL | undefined;
  const open = (): LaneQL => db!;
  beforeAll(async () => {
    db = await LaneQL.create({ flavour });
    db.generateHits('hits', ROWS, SEED, { columns: COLUMNS });
  });
  afterAll(() => db?.close());

  it('times every query and profiles none unless asked', () => {
    const result = open().query(GROUP_SQL);
    expect(Number.isFinite(result.elapsedMs)).toBe(true);
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(result.profile).toBeNull();
  });

  it('profile: a trace with a track per thread, scan spans with their counters, the query', () => {
    const result = open().query(WIDE_SQL, { profile: true });
    const trace = result.profile!;
    expect(trace.otherData.query).toBe(WIDE_SQL);
    expect(trace.otherData.threads).toBe(open().info().threads);
    const names = trace.traceEvents.filter((e) => e.ph === 'M').map((e) => [e.tid, e.args.name]);
    expect(names[0]).toEqual([0, 'main']);
    expect(names.length).toBe(trace.otherData.threads);
    const scans = trace.traceEvents.filter((e) => e.ph === 'X' && e.cat === 'scan');
    expect(scans.length).toBeGreaterThan(0);
    let rows = 0;
    for (const span of scans) {
      if (span.ph !== 'X') continue;
      expect(span.dur).toBeGreaterThanOrEqual(0);
      expect(span.args.bytes).toBeGreaterThan(0);
      rows += span.args.rows;
    }
    expect(rows).toBe(ROWS); // every row scanned exactly once, whatever the threads
    expect(result.toArray()).toEqual(open().query(WIDE_SQL).toArray());
  });

  it('threads: a query on fewer threads gives the same answer; more are clamped', () => {
    const all = open().info().threads;
    const expected = open().query(WIDE_SQL).toArray();
    for (const [asked, used] of [[1, 1], [2, Math.min(2, all)], [1000, all]] as const) {
      const result = open().query(WIDE_SQL, { threads: asked, profile: true });
      expect(result.toArray()).toEqual(expected);
      expect(result.profile!.otherData.threads).toBe(used);
      if (used === 1) expect(result.profile!.traceEvents.some((e) => e.ph === 'X' && e.tid > 0)).toBe(false);
    }
  });

  it('smallKeyLookup: false answers as the lookup table does', () => {
    const lookup = open().query(GROUP_SQL).toArray();
    expect(lookup.length).toBeGreaterThan(1);
    expect(open().query(GROUP_SQL, { smallKeyLookup: false }).toArray()).toEqual(lookup);
    expect(open().query(GROUP_SQL, { smallKeyLookup: true }).toArray()).toEqual(lookup);
  });

  it('rejects bad options naming them', () => {
    for (const [options, message] of [
      [{ threads: 0 }, /threads must be a positive integer, got 0/],
      [{ threads: 1.5 }, /threads must be a positive integer, got 1.5/],
      [{ threads: '2' }, /threads must be a positive integer/],
      [{ profile: 'yes' }, /query option profile must be a boolean, got yes/],
      [{ smallKeyLookup: 0 }, /query option smallKeyLookup must be a boolean/],
      [null, /query options must be an object/],
    ] as const) {
      const error = catchLaneQLError(() => open().query(GROUP_SQL, options as never));
      expect(error.message).toMatch(message);
    }
  });

  it('likePrefilterCounts: each stage passes fewer, and the matches are what LIKE selects', () => {
    const counts = open().likePrefilterCounts('hits', 'URL', 'google');
    const sql = open().query(
      "SELECT COUNT(*) AS n, SUM(strlen(URL)) AS bytes FROM hits WHERE URL LIKE '%google%'",
    ).toArray()[0]!;
    const all = open().query('SELECT SUM(strlen(URL)) AS bytes FROM hits').toArray()[0]!;
    expect(counts.rows).toBe(ROWS);
    expect(BigInt(counts.bytes)).toBe(all.bytes);
    expect(counts.positions).toBe(counts.bytes - 'google'.length + 1);
    expect(BigInt(counts.matchingRows)).toBe(sql.n);
    expect(counts.matchingRows).toBeGreaterThan(0);
    expect(counts.positions).toBeGreaterThan(counts.firstByte);
    expect(counts.firstByte).toBeGreaterThan(counts.twoByte);
    expect(counts.twoByte).toBeGreaterThanOrEqual(counts.verified);
    expect(counts.verified).toBeGreaterThanOrEqual(counts.matchingRows);
    expect(counts.prefilterPositions).toEqual([0, 5]); // first and last byte of 'google'
    expect(counts.elapsedMs).toBeGreaterThanOrEqual(0);
    countsByFlavour.set(flavour, counts);
    // One byte: the two-byte prefilter compares it twice.
    const one = open().likePrefilterCounts('hits', 'URL', 'g');
    expect(one.twoByte).toBe(one.firstByte);
    expect(one.verified).toBe(one.firstByte);
  });

  it('likePrefilterCounts: errors name the table, column or needle, and the database stays usable', async () => {
    for (const [args, message] of [
      [['nope', 'URL', 'x'], /no table named 'nope'/],
      [['hits', 'Nope', 'x'], /table 'hits' has no column 'Nope'/],
      [['hits', 'AdvEngineID', 'x'], /column 'AdvEngineID' is SMALLINT: LIKE counts need a VARCHAR column/],
      [['hits', 'URL', ''], /needle of at least one character/],
      [['hits', 'URL', 5], /all strings/],
    ] as const) {
      const error = catchLaneQLError(() => open().likePrefilterCounts(...(args as unknown as [string, string, string])));
      expect(error.message).toMatch(message);
    }
    await expectUsable(open());
  });
});

describe('likePrefilterCounts across flavours', () => {
  it('every flavour counts the same', () => {
    const all = NODE_FLAVOURS.map((f) => countsByFlavour.get(f));
    expect(all.every((c) => c !== undefined)).toBe(true);
    const strip = (c: LikePrefilterCounts | undefined) => ({ ...c, elapsedMs: 0 });
    for (const c of all) expect(strip(c)).toEqual(strip(all[0]));
  });
});

describe('the Worker API takes the same options', () => {
  let worker: LaneQLWorker | undefined;
  let db: LaneQL | undefined;
  beforeAll(async () => {
    [worker, db] = await Promise.all([LaneQL.createWorker({ flavour: 'simd128' }), LaneQL.create({ flavour: 'simd128' })]);
    await worker.generateHits('hits', ROWS, SEED, { columns: COLUMNS });
    db.generateHits('hits', ROWS, SEED, { columns: COLUMNS });
  });
  afterAll(async () => {
    db?.close();
    await worker?.close();
  });

  it('query options, elapsedMs and the profile come back from the Worker', async () => {
    const result = await worker!.query(WIDE_SQL, { threads: 1, profile: true, smallKeyLookup: false });
    expect(result.toArray()).toEqual(db!.query(WIDE_SQL).toArray());
    expect(result.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(result.profile!.otherData).toEqual({ query: WIDE_SQL, threads: 1 });
    expect((await worker!.query(WIDE_SQL)).profile).toBeNull();
  });

  it('likePrefilterCounts comes back from the Worker, errors too', async () => {
    const counts = await worker!.likePrefilterCounts('hits', 'URL', 'google');
    expect({ ...counts, elapsedMs: 0 }).toEqual({ ...db!.likePrefilterCounts('hits', 'URL', 'google'), elapsedMs: 0 });
    const error = await rejectionOf(worker!.likePrefilterCounts('hits', 'Nope', 'x'));
    expect(error.message).toMatch(/has no column 'Nope'/);
    const bad = await rejectionOf(worker!.query(WIDE_SQL, { threads: -1 }));
    expect(bad.message).toMatch(/threads must be a positive integer/);
  });
});
