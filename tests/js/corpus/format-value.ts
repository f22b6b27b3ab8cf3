// Result values spelled as the corpus expects them: laneql's FormatValue(ValueStyle::kText)
// (kernel/src/io/value_format.cc), which is DuckDB's CAST(x AS VARCHAR). The wasm runner must
// spell values itself because the package hands out raw column values (typed arrays), and it
// must spell them exactly as the native runner does, or the two runners would disagree on
// files both should pass. Checked against the native CLI in format-value.test.ts.
import { shortestFloat32 } from './exact-float.js';

// DuckDB's infinities of DATE and TIMESTAMP: the type's maximum and its negation.
const DATE_INFINITY = 2 ** 31 - 1;
const TIMESTAMP_INFINITY = 2n ** 63n - 1n;
const MICROS_PER_SECOND = 1_000_000n;
const SECONDS_PER_DAY = 86_400n;
const MICROS_PER_DAY = SECONDS_PER_DAY * MICROS_PER_SECOND;

function padded(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/** "HH:MM:SS[.ffffff]" of a count of microseconds (hours past 24 as they are), DuckDB's TIME. */
export function formatClock(micros: bigint): string {
  const negative = micros < 0n;
  const magnitude = negative ? -micros : micros;
  const seconds = magnitude / 1000000n;
  let text = `${negative ? '-' : ''}${String(seconds / 3600n).padStart(2, '0')}:` +
    `${padded(Number((seconds / 60n) % 60n), 2)}:${padded(Number(seconds % 60n), 2)}`;
  const fraction = Number(magnitude % 1000000n);
  if (fraction !== 0) text += '.' + padded(fraction, 6).replace(/0+$/, '');
  return text;
}

/** An INTERVAL as DuckDB spells it: "1 year 2 months 3 days 04:05:06.5", zero parts left out. */
export function formatInterval(value: { months: number; days: number; micros: bigint }): string {
  const parts: string[] = [];
  const part = (n: number, unit: string) => {
    if (n !== 0) parts.push(`${n} ${unit}${n === 1 || n === -1 ? '' : 's'}`);
  };
  part(Math.trunc(value.months / 12), 'year');
  part(value.months % 12, 'month');
  part(value.days, 'day');
  if (value.micros !== 0n || parts.length === 0) parts.push(formatClock(value.micros));
  return parts.join(' ');
}

// Shortest round-trip digits laid out as DuckDB (and Python's repr) do: positional with at least
// one fractional digit when the decimal exponent is in [-4, 16), else d[.ddd]e+XX with a
// two-digit minimum exponent. `digits` has no '.' and no trailing zeros; `exponent` is the
// power of ten of its first digit.
function layout(negative: boolean, digits: string, exponent: number): string {
  const sign = negative ? '-' : '';
  const count = digits.length;
  if (exponent >= -4 && exponent < 16) {
    if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
    if (count > exponent + 1) {
      return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
    }
    return `${sign}${digits}${'0'.repeat(exponent + 1 - count)}.0`;
  }
  const mantissa = count > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${mantissa}e${exponent < 0 ? '-' : '+'}${padded(Math.abs(exponent), 2)}`;
}

function special(x: number, negativeNaN: boolean): string | null {
  if (Number.isNaN(x)) return negativeNaN ? '-nan' : 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  return null;
}

/**
 * A DOUBLE. `negativeNaN`: the NaN's sign bit (DuckDB prints it, as "-nan"; read it from the
 * array's bytes with nanSignAt, since a JS number may not keep it).
 */
export function formatDouble(x: number, negativeNaN = false): string {
  const text = special(x, negativeNaN);
  if (text !== null) return text;
  const negative = x < 0 || Object.is(x, -0);
  // toExponential() without digits gives the shortest digits that read back as x, the closest
  // to x among those: what std::to_chars gives natively.
  const match = /^(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(Math.abs(x).toExponential())!;
  const digits = (match[1]! + (match[2] ?? '')).replace(/(?<=.)0+$/, '');
  return layout(negative, digits, Number(match[3]));
}

/** A FLOAT (x must be a float32 value): shortest digits that read back as that float32. */
export function formatFloat(x: number, negativeNaN = false): string {
  const text = special(x, negativeNaN);
  if (text !== null) return text;
  const negative = x < 0 || Object.is(x, -0);
  if (x === 0) return negative ? '-0.0' : '0.0';
  const { digits, exponent } = shortestFloat32(Math.abs(x));
  return layout(negative, digits, exponent);
}

/** Whether element `row` of a float array is a NaN with its sign bit set, read from its bytes. */
export function nanSignAt(values: Float32Array | Float64Array, row: number): boolean {
  const view = new DataView(values.buffer, values.byteOffset, values.byteLength);
  // Typed arrays use the platform's byte order; every platform Node runs on is little-endian.
  const high = view.getUint8((row + 1) * values.BYTES_PER_ELEMENT - 1);
  return Number.isNaN(values[row]!) && high >= 0x80;
}

// Proleptic Gregorian date of a day count from 1970-01-01, counting 400-year eras that start on
// March 1st (the kernel's civil_time.cc CivilFromDays). The year is astronomical: 0 is 1 BC.
function civilFromDays(days: number): { year: number; month: number; day: number } {
  const shifted = days + 719468; // days from 0000-03-01
  const era = Math.floor(shifted / 146097);
  const dayOfEra = shifted - era * 146097;
  const yearOfEra = Math.trunc(
    (dayOfEra -
      Math.trunc(dayOfEra / 1460) +
      Math.trunc(dayOfEra / 36524) -
      Math.trunc(dayOfEra / 146096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.trunc(yearOfEra / 4) - Math.trunc(yearOfEra / 100));
  const monthFromMarch = Math.trunc((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.trunc((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  return { year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day };
}

// "YYYY-MM-DD", with " (BC)" for years before 1: year 0 prints as 0001 (BC), -1 as 0002 (BC).
function civilDate(days: number): string {
  const { year, month, day } = civilFromDays(days);
  const bc = year <= 0;
  const text = `${padded(bc ? 1 - year : year, 4)}-${padded(month, 2)}-${padded(day, 2)}`;
  return bc ? `${text} (BC)` : text;
}

/** A DATE, days since 1970-01-01. */
export function formatDate(days: number): string {
  if (days === DATE_INFINITY) return 'infinity';
  if (days === -DATE_INFINITY) return '-infinity';
  return civilDate(days);
}

// Splits value into whole units, rounded towards minus infinity (instants before the epoch),
// and the non-negative remainder.
function floorDivMod(value: bigint, unit: bigint): [bigint, bigint] {
  let units = value / unit;
  let remainder = value % unit;
  if (remainder < 0n) {
    units -= 1n;
    remainder += unit;
  }
  return [units, remainder];
}

// "YYYY-MM-DD[ (BC)] HH:MM:SS[.ffffff]", the fraction without trailing zeros.
function timestamp(days: bigint, microsOfDay: bigint): string {
  const seconds = Number(microsOfDay / MICROS_PER_SECOND);
  let text =
    `${civilDate(Number(days))} ${padded(Math.trunc(seconds / 3600), 2)}:` +
    `${padded(Math.trunc(seconds / 60) % 60, 2)}:${padded(seconds % 60, 2)}`;
  const fraction = Number(microsOfDay % MICROS_PER_SECOND);
  if (fraction !== 0) text += `.${padded(fraction, 6).replace(/0+$/, '')}`;
  return text;
}

/** A TIMESTAMP, microseconds since 1970-01-01 00:00:00 UTC. */
export function formatTimestampMicros(micros: bigint): string {
  if (micros === TIMESTAMP_INFINITY) return 'infinity';
  if (micros === -TIMESTAMP_INFINITY) return '-infinity';
  const [days, microsOfDay] = floorDivMod(micros, MICROS_PER_DAY);
  return timestamp(days, microsOfDay);
}

/** A TIMESTAMP_S, seconds since 1970-01-01 00:00:00 UTC. */
export function formatTimestampSeconds(seconds: bigint): string {
  if (seconds === TIMESTAMP_INFINITY) return 'infinity';
  if (seconds === -TIMESTAMP_INFINITY) return '-infinity';
  const [days, secondsOfDay] = floorDivMod(seconds, SECONDS_PER_DAY);
  return timestamp(days, secondsOfDay * MICROS_PER_SECOND);
}

/**
 * What QueryResult.column() returns for each result type, per the package contract
 * (bindings-js/src/types.ts, ColumnValues). The runner insists on it: reading a column in
 * some other shape could make a value print right by accident, or wrong for the wrong reason.
 */
const COLUMN_KINDS: Record<string, string> = {
  TINYINT: 'Int8Array',
  SMALLINT: 'Int16Array',
  INTEGER: 'Int32Array',
  BIGINT: 'BigInt64Array',
  UTINYINT: 'Uint8Array',
  USMALLINT: 'Uint16Array',
  UINTEGER: 'Uint32Array',
  UBIGINT: 'BigUint64Array',
  FLOAT: 'Float32Array',
  DOUBLE: 'Float64Array',
  BOOLEAN: 'Uint8Array',
  DATE: 'Int32Array',
  TIMESTAMP: 'BigInt64Array',
  TIMESTAMP_S: 'BigInt64Array',
  TIME: 'BigInt64Array',
  INTERVAL: 'Array',
  HUGEINT: 'Array',
  VARCHAR: 'Array',
};

// DECIMAL(p,s): the package's exact decimal texts (bindings-js/src/result-data.ts).
const DECIMAL = /^DECIMAL\((\d+),(\d+)\)$/;

// A list type: its element type's name and '[]' (a fixed-width element: no VARCHAR, no lists).
const LIST = /^(.+)\[\]$/;

function isElementType(type: string): boolean {
  return DECIMAL.test(type) || (COLUMN_KINDS[type] !== undefined && type !== 'VARCHAR');
}

/** Throws when `values` is not the container the contract names for `type`. */
export function checkColumnKind(type: string, values: unknown): void {
  const list = LIST.exec(type);
  const known = list !== null ? isElementType(list[1]!) : DECIMAL.test(type);
  const kind = known ? 'Array' : COLUMN_KINDS[type];
  if (kind === undefined) throw new Error(`result type ${type} is not one the runner knows`);
  const actual = Array.isArray(values) ? 'Array' : (values as object)?.constructor?.name;
  if (actual !== kind) {
    throw new Error(`a ${type} column reads as ${actual}, the package contract says ${kind}`);
  }
}

/**
 * The text of the non-NULL value at `row` of a result column of `type` (a DuckDB type name),
 * given the column as QueryResult.column() returns it. VARCHAR values come back as they are;
 * spelling "" as "(empty)" is the record checker's business, as natively.
 */
export function formatCell(type: string, values: ArrayLike<unknown>, row: number): string {
  const value = values[row];
  const list = LIST.exec(type);
  if (list !== null && isElementType(list[1]!)) {
    if (!Array.isArray(value)) throw new Error(`row ${row} of a ${type} column holds ${String(value)} (${typeof value})`);
    return `[${value.map((element) => quotedElement(formatElement(list[1]!, element))).join(', ')}]`;
  }
  const decimal = DECIMAL.exec(type);
  if (decimal !== null) {
    if (typeof value !== 'string') throw new Error(`row ${row} of a ${type} column holds ${String(value)} (${typeof value})`);
    // The package gives '0.5'; DuckDB's text drops that 0 when the type has no integer digits.
    return decimal[1] === decimal[2] ? value.replace(/^(-?)0\./, '$1.') : value;
  }
  switch (type) {
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'BIGINT':
    case 'UTINYINT':
    case 'USMALLINT':
    case 'UINTEGER':
    case 'UBIGINT':
    case 'HUGEINT':
      if (typeof value !== 'number' && typeof value !== 'bigint') break;
      return String(value);
    case 'FLOAT':
      return formatFloat(value as number, nanSignAt(values as Float32Array, row));
    case 'DOUBLE':
      return formatDouble(value as number, nanSignAt(values as Float64Array, row));
    case 'BOOLEAN':
      return value !== 0 ? 'true' : 'false';
    case 'DATE':
      return formatDate(value as number);
    case 'TIMESTAMP':
      return formatTimestampMicros(value as bigint);
    case 'TIMESTAMP_S':
      return formatTimestampSeconds(value as bigint);
    case 'TIME':
      return formatClock(value as bigint);
    case 'INTERVAL':
      return formatInterval(value as { months: number; days: number; micros: bigint });
    case 'VARCHAR':
      if (typeof value !== 'string') break;
      return value;
    default:
      throw new Error(`result type ${type} is not one the runner knows`);
  }
  throw new Error(`row ${row} of a ${type} column holds ${String(value)} (${typeof value})`);
}

const MS_PER_DAY = 86_400_000;

/**
 * One element of a list as DuckDB prints it inside the list: as a value of the element type
 * prints. The package hands a list's elements out as row objects hold values of that type
 * (QueryResult.toArray(): booleans, Dates for DATE and TIMESTAMP), so each is put back in the
 * column form formatCell reads. What that form cannot hold is lost or refused: a NaN's sign
 * (printed "nan"), a TIMESTAMP's digits below the millisecond, and dates beyond a Date's range
 * (the infinities among them).
 */
function formatElement(type: string, element: unknown): string {
  const bad = (why: string) => new Error(`a ${type} list element is ${String(element)} (${typeof element})${why}`);
  const millis = (): number => {
    if (!(element instanceof Date)) throw bad(', not a Date');
    if (Number.isNaN(element.getTime())) throw bad(': an invalid Date (out of its range)');
    return element.getTime();
  };
  switch (type) {
    case 'BOOLEAN':
      if (typeof element !== 'boolean') throw bad('');
      return element ? 'true' : 'false';
    case 'DATE':
      return formatDate(millis() / MS_PER_DAY);
    case 'TIMESTAMP':
      return formatTimestampMicros(BigInt(millis()) * 1000n);
    case 'TIMESTAMP_S':
      return formatTimestampSeconds(BigInt(millis() / 1000));
    case 'FLOAT':
    case 'DOUBLE': {
      if (typeof element !== 'number') throw bad('');
      const values = type === 'FLOAT' ? Float32Array.of(element) : Float64Array.of(element);
      return formatCell(type, values, 0);
    }
    default:
      return formatCell(type, [element], 0);
  }
}

// A list element whose text holds a character of the list syntax is quoted, as DuckDB (2.0)
// quotes it and laneql's FormatValue does (value_format.cc, AppendList): so
// ['2013-07-15 12:34:56', '04:05:06'] and ['0001-12-31 (BC)'], but [1 day, 2024-02-29].
const NEEDS_QUOTES = /[[\]{}(),:'"\\]/;

function quotedElement(text: string): string {
  return NEEDS_QUOTES.test(text) ? `'${text.replace(/['\\]/g, '\\$&')}'` : text;
}
