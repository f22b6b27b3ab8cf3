// generateHits(): ClickBench's 105 columns, deterministic for a seed: every flavour generates the
// same table as the native engine (`laneql --rows 20000 --seed S`), another seed other data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LaneQL, type Flavour } from '../../bindings-js/dist/index.js';
import { catchLaneQLError, expectUsable } from './api-helpers.js';
import { NODE_FLAVOURS } from './flavours.js';

const ROWS = 20_000;

// create.sql's columns in order; B BIGINT, I INTEGER, S SMALLINT, V VARCHAR, T TIMESTAMP, D DATE.
const HITS_SCHEMA =
  'WatchID:B JavaEnable:S Title:V GoodEvent:S EventTime:T EventDate:D CounterID:I ClientIP:I RegionID:I UserID:B ' +
  'CounterClass:S OS:S UserAgent:S URL:V Referer:V IsRefresh:S RefererCategoryID:S RefererRegionID:I URLCategoryID:S ' +
  'URLRegionID:I ResolutionWidth:S ResolutionHeight:S ResolutionDepth:S FlashMajor:S FlashMinor:S FlashMinor2:V ' +
  'NetMajor:S NetMinor:S UserAgentMajor:S UserAgentMinor:V CookieEnable:S JavascriptEnable:S IsMobile:S MobilePhone:S ' +
  'MobilePhoneModel:V Params:V IPNetworkID:I TraficSourceID:S SearchEngineID:S SearchPhrase:V AdvEngineID:S ' +
  'IsArtifical:S WindowClientWidth:S WindowClientHeight:S ClientTimeZone:S ClientEventTime:T SilverlightVersion1:S ' +
  'SilverlightVersion2:S SilverlightVersion3:I SilverlightVersion4:S PageCharset:V CodeVersion:I IsLink:S IsDownload:S ' +
  'IsNotBounce:S FUniqID:B OriginalURL:V HID:I IsOldCounter:S IsEvent:S IsParameter:S DontCountHits:S WithHash:S ' +
  'HitColor:V LocalEventTime:T Age:S Sex:S Income:S Interests:S Robotness:S RemoteIP:I WindowName:I OpenerName:I ' +
  'HistoryLength:S BrowserLanguage:V BrowserCountry:V SocialNetwork:V SocialAction:V HTTPError:S SendTiming:I ' +
  'DNSTiming:I ConnectTiming:I ResponseStartTiming:I ResponseEndTiming:I FetchTiming:I SocialSourceNetworkID:S ' +
  'SocialSourcePage:V ParamPrice:B ParamOrderID:V ParamCurrency:V ParamCurrencyID:S OpenstatServiceName:V ' +
  'OpenstatCampaignID:V OpenstatAdID:V OpenstatSourceID:V UTMSource:V UTMMedium:V UTMCampaign:V UTMContent:V ' +
  'UTMTerm:V FromTag:V HasGCLID:S RefererHash:B URLHash:B CLID:I';
const TYPE_CODES: Record<string, string> = { B: 'BIGINT', I: 'INTEGER', S: 'SMALLINT', V: 'VARCHAR', T: 'TIMESTAMP', D: 'DATE' };
const SCHEMA = HITS_SCHEMA.split(' ').map((entry) => entry.split(':'));

const TOTALS_SQL =
  'SELECT COUNT(*) AS n, SUM(UserID) AS su, COUNT(DISTINCT UserID) AS du, COUNT(DISTINCT SearchPhrase) AS dp, ' +
  'SUM(ResolutionWidth) AS sw, MIN(EventDate) AS md, MAX(EventTime) AS mt, SUM(CounterID) AS sc, ' +
  'SUM(ClientIP) AS sip, COUNT(DISTINCT URL) AS durl, SUM(WatchID) AS sws, MAX(Title) AS mtitle, ' +
  'SUM(URLHash) AS suh, MIN(LocalEventTime) AS mlt FROM hits';
const REGIONS_SQL = 'SELECT RegionID, COUNT(*) AS c FROM hits GROUP BY RegionID ORDER BY c DESC, RegionID LIMIT 5';
const PHRASES_SQL =
  "SELECT SearchPhrase, COUNT(*) AS c FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 3";
const ENGINES_SQL =
  'SELECT SearchEngineID, AdvEngineID, COUNT(*) AS c, SUM(IsMobile) AS m FROM hits ' +
  'GROUP BY SearchEngineID, AdvEngineID ORDER BY c DESC, SearchEngineID, AdvEngineID LIMIT 4';
const AVG_SQL = 'SELECT AVG(ResolutionWidth) AS a, AVG(UserID) AS u, SUM(Age * 1.5) AS x FROM hits';

// What the native engine answers for `laneql --rows 20000` (seed 1).
const NATIVE_SEED_1: Record<string, unknown[]> = {
  [TOTALS_SQL]: [{
    n: 20000n, su: 48742189116774955631601n, du: 3557n, dp: 1161n, sw: 29845128n,
    md: new Date(Date.UTC(2013, 6, 2)), mt: new Date(Date.UTC(2013, 6, 31, 23, 56, 49)), sc: 7408058800n,
    sip: -425028552727n, durl: 18811n, sws: 92308663014438065482059n,
    mtitle: 'экзамен экзамен частные доллара - recepty-doma.ru', suh: 2001445654574835458870n,
    mlt: new Date(Date.UTC(2013, 6, 2, 4, 2, 13)),
  }],
  [REGIONS_SQL]: [
    { RegionID: 229, c: 3754n }, { RegionID: 2, c: 1432n }, { RegionID: 208, c: 858n },
    { RegionID: 169, c: 667n }, { RegionID: 32, c: 387n },
  ],
  [PHRASES_SQL]: [
    { SearchPhrase: 'песни смотреть', c: 56n }, { SearchPhrase: 'двери', c: 25n }, { SearchPhrase: 'iphone гостиница', c: 20n },
  ],
  [ENGINES_SQL]: [
    { SearchEngineID: 0, AdvEngineID: 0, c: 17324n, m: 1920n },
    { SearchEngineID: 2, AdvEngineID: 0, c: 1826n, m: 189n },
    { SearchEngineID: 3, AdvEngineID: 0, c: 489n, m: 65n },
    { SearchEngineID: 4, AdvEngineID: 0, c: 125n, m: 13n },
  ],
};
const SEED_7_SQL = 'SELECT COUNT(*) AS n, SUM(UserID) AS su, COUNT(DISTINCT UserID) AS du, COUNT(DISTINCT SearchPhrase) AS dp, SUM(ResolutionWidth) AS sw FROM hits';
const NATIVE_SEED_7 = [{ n: 20000n, su: 51347480426628815394367n, du: 3561n, dp: 1187n, sw: 29849996n }];

describe('generateHits()', () => {
  const dbs = new Map<Flavour, LaneQL>();
  beforeAll(async () => {
    for (const flavour of NODE_FLAVOURS) {
      const db = await LaneQL.create({ flavour });
      dbs.set(flavour, db);
      db.generateHits('hits', ROWS);
    }
  });
  afterAll(() => {
    for (const db of dbs.values()) db.close();
  });
  const on = (flavour: Flavour): LaneQL => dbs.get(flavour) as LaneQL;

  it.each(NODE_FLAVOURS)('%s: makes the rows and the 105 columns of ClickBench', (flavour) => {
    expect(on(flavour).query('SELECT count(*) FROM hits').toArray()).toEqual([{ 'count_star()': BigInt(ROWS) }]);
    const sample = on(flavour).query('SELECT * FROM hits LIMIT 3');
    expect(sample.numRows).toBe(3);
    expect(sample.columnNames).toHaveLength(105);
    expect(sample.columnNames).toEqual(SCHEMA.map(([name]) => name));
    expect(sample.columnTypes).toEqual(SCHEMA.map(([, code]) => TYPE_CODES[code]));
  });

  it.each(NODE_FLAVOURS)('%s: generates what the native engine generates for seed 1', (flavour) => {
    for (const [sql, rows] of Object.entries(NATIVE_SEED_1)) {
      expect(on(flavour).query(sql).toArray(), sql).toEqual(rows);
    }
  });

  it('generates the same data on every flavour', () => {
    const sqls = [...Object.keys(NATIVE_SEED_1), AVG_SQL, 'SELECT * FROM hits ORDER BY WatchID LIMIT 50'];
    for (const sql of sqls) {
      const [first, ...others] = NODE_FLAVOURS.map((flavour) => on(flavour).query(sql).toArray());
      expect(first.length, sql).toBeGreaterThan(0);
      others.forEach((rows) => expect(rows, sql).toEqual(first));
    }
    const avg = on('scalar').query(AVG_SQL).toArray()[0];
    expect(avg.a).toBeCloseTo(29845128 / 20000, 9);
  });

  it.each(NODE_FLAVOURS)('%s: uses seed 1 by default; another seed gives other data', (flavour) => {
    const db = on(flavour);
    db.generateHits('hits', ROWS, 1);
    const seed1 = db.query(SEED_7_SQL).toArray();
    db.generateHits('hits', ROWS, 7);
    const seed7 = db.query(SEED_7_SQL).toArray();
    expect(seed7).toEqual(NATIVE_SEED_7);
    expect(seed7).not.toEqual(seed1);
    db.generateHits('hits', ROWS);
    expect(db.query(SEED_7_SQL).toArray()).toEqual(seed1);
    expect(db.query(TOTALS_SQL).toArray()).toEqual(NATIVE_SEED_1[TOTALS_SQL]);
  });

  it.each(NODE_FLAVOURS)('%s: names the table as asked and makes small tables', (flavour) => {
    const db = on(flavour);
    db.generateHits('Tiny_Hits', 10, 3);
    expect(db.query('SELECT COUNT(*) AS n, COUNT(DISTINCT WatchID) AS w FROM tiny_hits').toArray()).toEqual([{ n: 10n, w: 10n }]);
  });

  it.each(NODE_FLAVOURS)('%s: throws LaneQLError for bad arguments', async (flavour) => {
    const db = on(flavour);
    for (const rows of [-1, 1.5, NaN, '10' as unknown as number]) catchLaneQLError(() => db.generateHits('bad_hits', rows));
    catchLaneQLError(() => db.generateHits('', 10));
    catchLaneQLError(() => db.query('SELECT * FROM bad_hits'));
    await expectUsable(db);
  });
});
