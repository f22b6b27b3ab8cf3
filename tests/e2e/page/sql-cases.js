// The SQL every browser case runs on generated hits rows; run.mjs computes the expected answers
// with the same package in Node. No imports, so both sides load it as it is.
export const HITS_ROWS = 30000;
export const HITS_QUERIES = [
  'SELECT count(*), sum(ResolutionWidth), count(DISTINCT UserID), avg(ResolutionWidth) FROM hits',
  "SELECT SearchPhrase, count(*) AS c FROM hits WHERE SearchPhrase <> '' GROUP BY SearchPhrase ORDER BY c DESC, SearchPhrase LIMIT 5",
  "SELECT count(*) FROM hits WHERE URL LIKE '%google%'",
];

/** A result as text, one line per row (bigints and all), to compare across engines. */
export function resultText(result) {
  return result.toArray().map((row) => Object.values(row).map(String).join('\t')).join('\n');
}

/** The SQL part of a case, through either API (LaneQL or LaneQLWorker: both awaited). */
export async function runQueries(db, seed) {
  await db.generateHits('hits', HITS_ROWS, seed);
  const answers = [];
  for (const sql of HITS_QUERIES) answers.push(resultText(await db.query(sql)));
  return answers;
}

/**
 * `params`: { flavour?: string, rows: number, seed: number }. Resolves to a plain object (it is
 * posted from a Worker): the environment, info(), and the sums, floats as their bits in hex.
 */
