// Numbers as the page shows them, and the statistics of repeated runs.

const grouped = new Intl.NumberFormat('en-US');

/** 1234567 → "1,234,567". */
export function formatCount(n: number | bigint): string {
  return grouped.format(n);
}

/** Milliseconds with about three significant digits. */
export function formatMs(ms: number): string {
  if (ms >= 100) return `${ms.toFixed(0)} ms`;
  if (ms >= 10) return `${ms.toFixed(1)} ms`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${ms.toFixed(3)} ms`;
}

/** Bytes in KB / MB / GB (powers of 1000, as throughput is quoted). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(1)} KB`;
  return `${bytes} B`;
}

/** A rate per second: "12.3 M rows/s", "4.56 GB/s". */
export function formatRate(amount: number, ms: number, unit: 'rows' | 'bytes'): string {
  if (!(ms > 0) || !(amount > 0)) return '–';
  const perSecond = (amount / ms) * 1000;
  if (unit === 'bytes') return `${(perSecond / 1e9).toFixed(2)} GB/s`;
  if (perSecond >= 1e9) return `${(perSecond / 1e9).toFixed(2)} G rows/s`;
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(1)} M rows/s`;
  return `${formatCount(Math.round(perSecond))} rows/s`;
}

/** The median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
