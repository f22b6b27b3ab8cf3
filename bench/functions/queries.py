"""The benchmark's queries: each function evaluated on every row of t, folded into one value.

Each query's answer is compared between the engines, so the aggregate around a function is
chosen to depend on what it returns: sum() of numbers, sum(strlen(...)) of strings (bytes, so
that case mappings which change a character's width count), count(*) FILTER of predicates, and
min / max where the content matters more than the length (md5, strftime). Temporal results are
turned into numbers (date - date, epoch_us) so that both engines print them alike.
"""

from collections import namedtuple

# family: the report's section; name: the row's label; sql: the query;
# check: "exact" (floats to a relative 1e-9), "approx" (within 5 %: different sketches) or "shape"
# (one row each, values not compared: see ORDER_DEPENDENT).
Query = namedtuple("Query", "family name sql check")

FAMILIES = [
    ("baseline", "Baselines (scan and fold, no function)"),
    ("numbers", "Numbers"),
    ("strings", "Strings"),
    ("dates", "Dates and times"),
    ("conditionals", "Conditionals and casts"),
    ("aggregates", "Aggregates, ungrouped"),
    ("grouped", "Aggregates grouped by g (1,000 groups)"),
    ("windows", "Window functions"),
]


def _scalar(family, rows):
    return [Query(family, name, f"SELECT {select} FROM t", check) for name, select, check in rows]


def _rows(pairs, check="exact"):
    return [(name, select, check) for name, select in pairs]


BASELINE = _scalar("baseline", _rows([
    ("sum(i)", "sum(i)"),
    ("sum(d)", "sum(d)"),
    ("sum(strlen(s))", "sum(strlen(s))"),
    ("sum(i * 3 + 1)", "sum(i * 3 + 1)"),
]))

NUMBERS = _scalar("numbers", _rows([
    ("abs", "sum(abs(i))"),
    ("sign", "sum(sign(d))"),
    ("round(d, 2)", "sum(round(d, 2))"),
    ("floor", "sum(floor(d))"),
    ("ceil", "sum(ceil(d))"),
    ("trunc", "sum(trunc(d))"),
    ("sqrt", "sum(sqrt(abs(d)))"),
    ("cbrt", "sum(cbrt(d))"),
    ("pow(d, 2)", "sum(pow(d, 2))"),
    ("exp", "sum(exp(d / 1e4))"),
    ("ln", "sum(ln(abs(d) + 1))"),
    ("log10", "sum(log10(abs(d) + 1))"),
    ("sin", "sum(sin(d))"),
    ("cos", "sum(cos(d))"),
    ("atan2", "sum(atan2(d, i))"),
    ("degrees", "sum(degrees(d))"),
    ("gcd(i, 12)", "sum(gcd(i, 12))"),
    ("i // 7", "sum(i // 7)"),
    ("i % 7", "sum(i % 7)"),
    ("i & 255", "sum(i & 255)"),
    ("i | 255", "sum(i | 255)"),
    ("xor(i, 255)", "sum(xor(i, 255))"),
    ("(i & 65535) << 3", "sum((i & 65535) << 3)"),
    ("b >> 7", "sum(b >> 7)"),
    ("greatest", "sum(greatest(i, g * 1000))"),
    ("least", "sum(least(i, g * 1000))"),
]))

STRINGS = _scalar("strings", _rows([
    ("length", "sum(length(s))"),
    ("upper", "sum(strlen(upper(s)))"),
    ("lower", "sum(strlen(lower(s)))"),
    ("substring(s, 2, 5)", "sum(strlen(substring(s, 2, 5)))"),
    ("left(s, 3)", "sum(strlen(left(s, 3)))"),
    ("right(s, 3)", "sum(strlen(right(s, 3)))"),
    ("replace(s, 'a', 'xy')", "sum(strlen(replace(s, 'a', 'xy')))"),
    ("split_part(s, ' ', 2)", "sum(strlen(split_part(s, ' ', 2)))"),
    ("concat(s, '-', i)", "sum(strlen(concat(s, '-', i)))"),
    ("concat_ws('/', s, s)", "sum(strlen(concat_ws('/', s, s)))"),
    ("s || 'x'", "sum(strlen(s || 'x'))"),
    ("trim", "sum(strlen(trim(s)))"),
    ("lpad(s, 30, '*')", "sum(strlen(lpad(s, 30, '*')))"),
    ("reverse", "max(reverse(s))"),
    ("repeat(s, 2)", "sum(strlen(repeat(s, 2)))"),
    ("strpos(s, 'an')", "sum(strpos(s, 'an'))"),
    ("starts_with(s, 'ab')", "count(*) FILTER (WHERE starts_with(s, 'ab'))"),
    ("ends_with(s, 'e')", "count(*) FILTER (WHERE ends_with(s, 'e'))"),
    ("contains(s, 'an')", "count(*) FILTER (WHERE contains(s, 'an'))"),
    ("ascii", "sum(ascii(s))"),
    ("md5", "max(md5(s))"),
    ("s LIKE '%ab%'", "count(*) FILTER (WHERE s LIKE '%ab%')"),
    ("s LIKE 'ab%'", "count(*) FILTER (WHERE s LIKE 'ab%')"),
    ("s ILIKE '%AB%'", "count(*) FILTER (WHERE s ILIKE '%AB%')"),
    ("regexp_matches", "count(*) FILTER (WHERE regexp_matches(s, '[0-9]+[a-z]'))"),
    ("regexp_replace", "sum(strlen(regexp_replace(s, '[aeiou]', '', 'g')))"),
]))

DATES = _scalar("dates", _rows([
    ("year", "sum(year(dt))"),
    ("month", "sum(month(dt))"),
    ("day", "sum(day(dt))"),
    ("dayofweek", "sum(dayofweek(dt))"),
    ("date_part('doy', dt)", "sum(date_part('doy', dt))"),
    ("hour(ts)", "sum(hour(ts))"),
    ("year(ts)", "sum(year(ts))"),
    ("date_trunc('month', ts)", "sum(epoch_us(date_trunc('month', ts)))"),
    ("date_trunc('day', ts)", "sum(epoch_us(date_trunc('day', ts)))"),
    ("extract(epoch FROM ts)", "sum(extract(epoch FROM ts))"),
    ("date_diff('day', dt, ...)", "sum(date_diff('day', dt, DATE '2020-01-01'))"),
    ("date_diff('month', dt, ...)", "sum(date_diff('month', dt, DATE '2020-01-01'))"),
    ("strftime(ts, '%Y-%m-%d')", "max(strftime(ts, '%Y-%m-%d'))"),
    ("last_day", "sum(last_day(dt) - DATE '1990-01-01')"),
    ("dayname", "sum(strlen(dayname(dt)))"),
    ("make_date", "sum(make_date(year(dt), month(dt), 1) - DATE '1990-01-01')"),
]))

CONDITIONALS = _scalar("conditionals", _rows([
    ("coalesce(i, g)", "sum(coalesce(i, g))"),
    ("nullif(g2, 0)", "sum(nullif(g2, 0))"),
    ("CASE WHEN", "sum(CASE WHEN d > 0 THEN i ELSE -i END)"),
    ("CASE x WHEN (strings)", "sum(strlen(CASE g2 WHEN 0 THEN 'a' WHEN 1 THEN 'bb' ELSE 'ccc' END))"),
    ("if(d > 0, 1, 2)", "sum(if(d > 0, 1, 2))"),
    ("ifnull(s, '')", "sum(strlen(ifnull(s, '')))"),
    ("g IN (10 values)", "count(*) FILTER (WHERE g IN (1, 3, 5, 7, 11, 13, 17, 19, 23, 29))"),
    ("CAST(i AS VARCHAR)", "sum(strlen(CAST(i AS VARCHAR)))"),
    ("CAST(d AS BIGINT)", "sum(CAST(d AS BIGINT))"),
    ("CAST(dt AS VARCHAR)", "max(CAST(dt AS VARCHAR))"),
    ("CAST(ts AS DATE)", "sum(CAST(ts AS DATE) - DATE '1990-01-01')"),
]))

# The aggregates, each run over the whole table and by g. kind says how the per-group answers
# are folded into one value: "num" sum(abs(x)) (abs: no cancellation between groups, so the
# relative check stays meaningful), "str" sum(strlen(x)).
# Grouped only, as the cost of grouping itself: ungrouped, count(*) is answered from the row count
# and sum(d) is already a baseline.
GROUPING_BASELINES = [
    ("count(*)", "count(*)", "num", "exact"),
    ("sum(d)", "sum(d)", "num", "exact"),
]
AGGREGATES = [
    ("avg(d)", "avg(d)", "num", "exact"),
    ("min(s)", "min(s)", "str", "exact"),
    ("median(d)", "median(d)", "num", "exact"),
    ("quantile_cont(d, 0.9)", "quantile_cont(d, 0.9)", "num", "exact"),
    ("quantile_disc(d, 0.9)", "quantile_disc(d, 0.9)", "num", "exact"),
    ("median(i)", "median(i)", "num", "exact"),
    ("mode(g2)", "mode(g2)", "num", "exact"),
    ("stddev_samp(d)", "stddev_samp(d)", "num", "exact"),
    ("var_pop(d)", "var_pop(d)", "num", "exact"),
    ("corr(d, i)", "corr(d, i)", "num", "exact"),
    ("regr_slope(d, i)", "regr_slope(d, i)", "num", "exact"),
    ("approx_count_distinct(s)", "approx_count_distinct(s)", "num", "approx"),
    ("arg_min(s, d)", "arg_min(s, d)", "str", "exact"),
    ("string_agg(s, ',')", "strlen(string_agg(s, ','))", "num", "exact"),
    ("count(DISTINCT s)", "count(DISTINCT s)", "num", "exact"),
    ("count(DISTINCT i)", "count(DISTINCT i)", "num", "exact"),
    ("sum(DISTINCT i)", "sum(DISTINCT i)", "num", "exact"),
    ("bit_xor(i)", "bit_xor(i)", "num", "exact"),
    ("first(s)", "first(s)", "str", "shape"),
]


def _aggregate_queries():
    out = []
    for name, agg, kind, check in GROUPING_BASELINES + AGGREGATES:
        if (name, agg, kind, check) in AGGREGATES:
            out.append(Query("aggregates", name, f"SELECT {agg} FROM t", check))
        fold = "sum(abs(x))" if kind == "num" else "sum(strlen(x))"
        out.append(Query("grouped", name, f"SELECT {fold} FROM (SELECT g, {agg} AS x FROM t GROUP BY g)",
                         check))
    return [q for q in out if q.family == "aggregates"] + [q for q in out if q.family == "grouped"]


# Run only when the probe below succeeds (windows are new in laneql). The answers do not depend
# on how ties are broken: top-n folds d itself, rank gives ties one value, and the running sum
# orders by (d, b), which has no ties here (b is nearly unique, and within one g).
WINDOW_PROBE = "SELECT row_number() OVER (PARTITION BY g ORDER BY d) FROM t LIMIT 1"
WINDOWS = [
    Query("windows", "top-3 per group (QUALIFY row_number)",
          "SELECT count(*), sum(d) FROM (SELECT * FROM t "
          "QUALIFY row_number() OVER (PARTITION BY g ORDER BY d DESC) <= 3)", "exact"),
    Query("windows", "top-3 per group (subquery)",
          "SELECT count(*), sum(d) FROM (SELECT d, row_number() OVER (PARTITION BY g ORDER BY d DESC) AS rn "
          "FROM t) WHERE rn <= 3", "exact"),
    Query("windows", "running sum per group",
          "SELECT sum(rs) FROM (SELECT sum(i) OVER (PARTITION BY g ORDER BY d, b ROWS UNBOUNDED PRECEDING) AS rs "
          "FROM t)", "exact"),
    Query("windows", "rank per group",
          "SELECT sum(r) FROM (SELECT rank() OVER (PARTITION BY g ORDER BY i) AS r FROM t)", "exact"),
]


# The queries whose answer legitimately differs between the engines (check "shape"), and why.
ORDER_DEPENDENT = {
    "first(s)": "DuckDB's first() without ORDER BY returns the row some thread reached first (its "
                "parallel scan has no row order; the answer changes from run to run), laneql's is the "
                "first in table order",
}


def all_queries():
    return BASELINE + NUMBERS + STRINGS + DATES + CONDITIONALS + _aggregate_queries()
