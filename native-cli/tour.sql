-- The tour `make run` shows: ClickBench-shaped queries on the generated hits table, each with
-- the technique that makes it fast. Run it yourself:
--   laneql native-cli/tour.sql --table hits=data/hits-10m.laneql --timer --format table
.print 1. count(*) with no WHERE: answered from the table's metadata, no column is read
SELECT count(*) FROM hits;
.print 2. A filtered count: SIMD compare into a bitmask, popcount (ClickBench Q2)
SELECT count(*) FROM hits WHERE AdvEngineID <> 0;
.print 3. Sums and an average: unrolled SIMD sums, the same bits on every target and thread count (Q3)
SELECT sum(AdvEngineID), count(*), avg(ResolutionWidth) FROM hits;
.print 4. SUM(x + k) rewritten to SUM(x) + k * COUNT(x): one pass for all of them (Q30's trick)
SELECT sum(ResolutionWidth), sum(ResolutionWidth + 1), sum(ResolutionWidth + 2), sum(ResolutionWidth + 89) FROM hits;
.print 5. COUNT(DISTINCT) over the Int64 range: per-thread hash sets merged by partition (Q5)
SELECT count(DISTINCT UserID) FROM hits;
.print 6. GROUP BY a small key with COUNT(DISTINCT), top 10 (Q9)
SELECT RegionID, count(DISTINCT UserID) AS u FROM hits GROUP BY RegionID ORDER BY u DESC LIMIT 10;
.print 7. String GROUP BY: Swiss-table hashing with keys in an arena (Q13)
SELECT SearchPhrase, count(*) AS c FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC LIMIT 10;
.print 8. LIKE '%google%': two-character SIMD substring search (Q21)
SELECT count(*) FROM hits WHERE URL LIKE '%google%';
.print 9. Two keys packed into one hash key (Q15)
SELECT SearchEngineID, SearchPhrase, count(*) AS c FROM hits WHERE SearchPhrase <> '' GROUP BY SearchEngineID, SearchPhrase ORDER BY c DESC LIMIT 10;
.print 10. Dates: the filters of Q37-Q43 and date_trunc to the minute
SELECT date_trunc('minute', EventTime) AS m, count(*) AS PageViews FROM hits WHERE CounterID = 62 AND EventDate >= '2013-07-14' AND EventDate <= '2013-07-15' AND IsRefresh = 0 AND DontCountHits = 0 GROUP BY date_trunc('minute', EventTime) ORDER BY date_trunc('minute', EventTime) LIMIT 10;
.print 11. Top-N over every row: per-thread heaps, then one merge (Q24)
SELECT WatchID, EventTime, URL FROM hits WHERE URL LIKE '%google%' ORDER BY EventTime LIMIT 5;
