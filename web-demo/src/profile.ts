// A query's profile (trace-event JSON from QueryOptions.profile) read into what the page draws:
// one lane per thread, a span per morsel or phase, and the bytes and rows the scan read.
import type { ProfileTrace, TraceEvent } from 'laneql';

/** Colour groups of the timeline: reading columns, aggregating radix partitions after the scan,
 * partitioning a thread's groups, combining. */
export type Phase = 'scan' | 'aggregate' | 'convert' | 'merge';

export const PHASE_LABELS: Record<Phase, string> = {
  scan: 'scan / filter / aggregate (per morsel)',
  aggregate: 'aggregate (a radix partition’s groups)',
  convert: 'convert (partition a thread’s groups)',
  merge: 'merge / sort / output',
};

export interface Span {
  tid: number;
  name: string;
  phase: Phase;
  /** Microseconds from the start of the query's first span. */
  start: number;
  duration: number;
  rows: number;
  bytes: number;
  probes: number;
  /** A hash join's counters (its probe span's; absent on other spans): see JoinCounters. */
  join?: JoinCounters;
}

/** What one join did, from its probe span: the build side's rows and the partitions its hash
 *  table was placed in; the probe source rows its min/max runtime filter left unread, the probe
 *  rows, those the runtime key filter dropped before the hash table, those that looked a key up
 *  in it, and the matches (pairs that passed the join). */
export interface JoinCounters {
  build: number;
  partitions: number;
  skipped: number;
  probeRows: number;
  filtered: number;
  lookedUp: number;
  matches: number;
}

/** The spans that carry a join's counters: one per join of a pipeline, one per IN / EXISTS. */
export const JOIN_PROBE_SPANS = new Set(['hash join probe', 'mark join probe']);

export interface Timeline {
  threads: { tid: number; name: string }[];
  spans: Span[];
  /** End of the last span, microseconds. */
  endUs: number;
  /** Rows and bytes of column data the scan spans read (all threads). */
  scannedRows: number;
  scannedBytes: number;
}

type SpanEvent = Extract<TraceEvent, { ph: 'X' }>;

function phaseOf(event: SpanEvent): Phase {
  if (event.cat === 'scan') return 'scan';
  if (event.cat === 'aggregate') return 'aggregate';
  if (event.cat === 'convert') return 'convert';
  return 'merge';
}

export function readProfile(trace: ProfileTrace): Timeline {
  const names = new Map<number, string>();
  const spans: Span[] = [];
  for (const event of trace.traceEvents) {
    if (event.ph === 'M') names.set(event.tid, event.args.name);
    if (event.ph !== 'X') continue;
    spans.push({
      tid: event.tid,
      name: event.name,
      phase: phaseOf(event),
      start: event.ts,
      duration: event.dur,
      rows: event.args.rows,
      bytes: event.args.bytes,
      probes: event.args.probes,
      ...(JOIN_PROBE_SPANS.has(event.name)
        ? {
            join: {
              build: event.args.build ?? 0,
              partitions: event.args.partitions ?? 1,
              skipped: event.args.skipped ?? 0,
              probeRows: event.args.rows,
              filtered: event.args.filtered ?? 0,
              lookedUp: event.args.probes,
              matches: event.args.matches ?? 0,
            },
          }
        : {}),
    });
  }
  // Times count from the profiler's start, which may precede the query: start at its first span.
  const origin = spans.reduce((min, s) => Math.min(min, s.start), Infinity);
  for (const span of spans) {
    span.start -= origin;
    if (!names.has(span.tid)) names.set(span.tid, `thread ${span.tid}`);
  }
  const scans = spans.filter((s) => s.phase === 'scan');
  return {
    threads: [...names].sort((a, b) => a[0] - b[0]).map(([tid, name]) => ({ tid, name })),
    spans,
    endUs: spans.reduce((end, s) => Math.max(end, s.start + s.duration), 0),
    scannedRows: scans.reduce((sum, s) => sum + s.rows, 0),
    scannedBytes: scans.reduce((sum, s) => sum + s.bytes, 0),
  };
}
