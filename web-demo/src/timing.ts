// Timing queries whose engine time can be shorter than the clock's tick: browsers coarsen
// performance.now() (which the engine's elapsedMs comes from) to 0.1 ms on pages that are not
// cross-origin isolated. A sample is then the mean of several back-to-back runs, enough to span
// many ticks; with the clock's jitter such means are unbiased, where one run would read 0 or 0.1.
import { median } from './format.js';

// A sample should cover at least this much engine time: 20 ticks of the coarse clock.
const TARGET_SAMPLE_MS = 2;
const MAX_REPEAT = 64;

/** Runs per sample for a query that took `oneRunMs` once. */
export function repeatFor(oneRunMs: number): number {
  const floor = TARGET_SAMPLE_MS / MAX_REPEAT;
  return Math.min(MAX_REPEAT, Math.max(1, Math.ceil(TARGET_SAMPLE_MS / Math.max(oneRunMs, floor))));
}

/** The mean engine time of `repeat` runs of `runOnce` (which returns one run's elapsedMs). */
export async function sampleMs(runOnce: () => Promise<number>, repeat: number): Promise<number> {
  let total = 0;
  for (let i = 0; i < repeat; i++) total += await runOnce();
  return total / repeat;
}

export interface Timing {
  medianMs: number;
  samples: number[];
  /** Runs averaged in each sample. */
  repeat: number;
}

/** Two warm-up runs (the faster one sets the runs per sample), then `samples` samples. */
export async function timeRuns(runOnce: () => Promise<number>, samples: number): Promise<Timing> {
  const warm = Math.min(await runOnce(), await runOnce());
  const repeat = repeatFor(warm);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await sampleMs(runOnce, repeat));
  return { medianMs: median(times), samples: times, repeat };
}
