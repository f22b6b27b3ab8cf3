// register()'s plain-array values of the types whose JavaScript form is no number: DECIMAL(p,s)
// (decimal text, numbers, bigints), TIME (microseconds or 'HH:MM:SS[.ffffff]') and INTERVAL
// ({ months, days, micros }), each as the kernel's integer (kernel/include/laneql/types.h).
import { decimalPrecision, decimalScale, isDecimalType, TypeId } from './type-ids.js';
import type { CellValue, IntervalValue } from './types.js';

const DECIMAL_TEXT = /^\s*([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?\s*$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?$/;
const MICROS_PER_DAY = 86_400_000_000n;

/** A DECIMAL(p,s) value as its scaled integer (value · 10^s, rounded half away from zero, as the
 *  kernel's casts round); undefined when it is no number or needs more than p digits. */
export function decimalValue(typeId: number, value: CellValue): bigint | undefined {
  const scale = decimalScale(typeId);
  let text: string;
  if (typeof value === 'bigint') text = value.toString();
  else if (typeof value === 'number' && Number.isFinite(value)) text = String(value);  // the shortest exact text
  else if (typeof value === 'string') text = value;
  else return undefined;
  const m = DECIMAL_TEXT.exec(text);
  if (m === null) return undefined;
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  if (whole === '' && fraction === '') return undefined;
  const digits = BigInt((whole + fraction) || '0');
  const shift = Number(exponent) - fraction.length + scale;  // digits · 10^shift at the scale
  if (Math.abs(shift) > 80) return shift > 0 && digits !== 0n ? undefined : 0n;
  let v: bigint;
  if (shift >= 0) {
    v = digits * 10n ** BigInt(shift);
  } else {
    const p = 10n ** BigInt(-shift);
    v = digits / p;
    if ((digits % p) * 2n >= p) v += 1n;
  }
  if (v >= 10n ** BigInt(decimalPrecision(typeId))) return undefined;
  return sign === '-' ? -v : v;
}

/** A TIME value: microseconds since midnight (a bigint or an integer number) or 'HH:MM:SS'. */
export function timeValue(value: CellValue): bigint | undefined {
  let micros: bigint | undefined;
  if (typeof value === 'bigint') micros = value;
  else if (typeof value === 'number' && Number.isInteger(value)) micros = BigInt(value);
  else if (typeof value === 'string') {
    const m = CLOCK.exec(value.trim());
    if (m === null) return undefined;
    const [, h, mi, s = '0', frac = ''] = m;
    if (Number(mi) > 59 || Number(s) > 59) return undefined;
    micros = ((BigInt(h!) * 60n + BigInt(mi!)) * 60n + BigInt(s)) * 1_000_000n + BigInt(frac.padEnd(6, '0'));
  }
  return micros !== undefined && micros >= 0n && micros <= MICROS_PER_DAY ? micros : undefined;
}

/** An INTERVAL as the kernel packs it: months · 2^96 + days · 2^64 + micros, in 128 bits. */
export function intervalValue(value: CellValue): bigint | undefined {
  if (typeof value !== 'object' || value === null || value instanceof Date) return undefined;
  const { months, days, micros } = value as IntervalValue;
  if (!Number.isInteger(months) || !Number.isInteger(days) || typeof micros !== 'bigint') return undefined;
  if (Math.abs(months) > 2 ** 31 - 1 || Math.abs(days) > 2 ** 31 - 1 || BigInt.asIntN(64, micros) !== micros) return undefined;
  return BigInt.asIntN(128, (BigInt(months) << 96n) + (BigInt(days) << 64n) + micros);
}

/** The integer of a DECIMAL, TIME or INTERVAL column's value; null for another type. */
export function specialValue(typeId: number, value: CellValue): bigint | undefined | null {
  if (isDecimalType(typeId)) return decimalValue(typeId, value);
  if (typeId === TypeId.Time) return timeValue(value);
  if (typeId === TypeId.Interval) return intervalValue(value);
  return null;
}
