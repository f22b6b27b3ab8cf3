// Preset queries: ClickBench's (../shared/clickbench/queries.sql; Qn is its 0-based number),
// chosen to show one technique each.
export interface Preset {
  label: string;
  /** What the engine does for it, shown as the button's description. */
  shows: string;
  sql: string;
}

export const PRESETS: Preset[] = [
  {
    label: 'count(*)',
    shows: 'Q0: answered from the row count, no column is read',
    sql: 'SELECT COUNT(*) FROM hits;',
  },
  {
    label: 'SUM / AVG',
    shows: 'Q2: SIMD sums over whole columns, morsel-parallel',
    sql: 'SELECT SUM(AdvEngineID), COUNT(*), AVG(ResolutionWidth) FROM hits;',
  },
  {
    label: 'GROUP BY RegionID',
    shows: 'Q8: per-thread hash tables and COUNT(DISTINCT) sets, merged',
    sql: 'SELECT RegionID, COUNT(DISTINCT UserID) AS u FROM hits GROUP BY RegionID ORDER BY u DESC LIMIT 10;',
  },
  {
    label: 'AdvEngineID (small key)',
    shows: 'Q7: an 8-bit key indexes a lookup table directly, no hashing',
    sql: 'SELECT AdvEngineID, COUNT(*) FROM hits WHERE AdvEngineID <> 0 GROUP BY AdvEngineID ORDER BY COUNT(*) DESC;',
  },
  {
    label: 'SearchPhrase',
    shows: 'Q12: string keys in a Swiss-table-style hash table',
    sql: "SELECT SearchPhrase, COUNT(*) AS c FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC LIMIT 10;",
  },
  {
    label: "LIKE '%google%'",
    shows: 'Q20: a two-byte SIMD prefilter over the whole string buffer',
    sql: "SELECT COUNT(*) FROM hits WHERE URL LIKE '%google%';",
  },
  {
    label: 'top-N ORDER BY',
    shows: 'Q24: a partial sort per thread, then a merge of the runs',
    sql: "SELECT SearchPhrase FROM hits WHERE SearchPhrase <> '' ORDER BY EventTime LIMIT 10;",
  },
  {
    label: 'dates',
    shows: 'Q6: MIN / MAX over a DATE column',
    sql: 'SELECT MIN(EventDate), MAX(EventDate) FROM hits;',
  },
  {
    label: 'date_trunc',
    shows: 'Q42 without its CounterID filter and OFFSET (which need ClickBench’s 100 M rows)',
    sql: "SELECT DATE_TRUNC('minute', EventTime) AS M, COUNT(*) AS PageViews FROM hits WHERE EventDate >= '2013-07-14' AND EventDate <= '2013-07-15' AND IsRefresh = 0 AND DontCountHits = 0 GROUP BY DATE_TRUNC('minute', EventTime) ORDER BY DATE_TRUNC('minute', EventTime) LIMIT 10;",
  },
];
