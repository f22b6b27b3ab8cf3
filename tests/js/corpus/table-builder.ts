// Inline corpus tables -> register() input, parsing every value as the native runner's
// table_builder.cc does (which follows DuckDB's CAST(text AS type) for the spellings the corpus
// uses): strtoll / strtoull / strtod / strtof rules for numbers, YYYY-MM-DD dates (year 0000 is
// 1 BC), timestamps with up to 6 fraction digits. A value that does not parse fails the file
// with the native message, "path:line: value 'x' of column c (TYPE): why".
import { CorpusFormatError, type InlineTable, type InlineType } from './test-file.js';
import { roundDecimalToFloat32 } from './exact-float.js';

/** One value of a register() plain array. */
type Cell = number | bigint | boolean | string | null;

/**
 * A TypedColumn of the package (bindings-js/src/types.ts), typed structurally so that this file
 * needs nothing from the package: plain arrays with null for NULL, or, for a float column that
 * holds a negative NaN, a typed array (a JS number cannot be trusted to keep a NaN's sign) with
 * `valid` marking the NULLs.
 */
export type BuiltColumn =
  | { type: InlineType; values: Cell[] }
  | { type: 'FLOAT' | 'DOUBLE'; values: Float32Array | Float64Array; valid: Uint8Array };

export type BuiltTable = Record<string, BuiltColumn>;

const MICROS_PER_DAY = 86_400_000_000n;

class BadValue extends Error {}

const INTEGER_RANGES: Partial<Record<InlineType, [bigint, bigint]>> = {
  TINYINT: [-(2n ** 7n), 2n ** 7n - 1n],
  SMALLINT: [-(2n ** 15n), 2n ** 15n - 1n],
  INTEGER: [-(2n ** 31n), 2n ** 31n - 1n],
  BIGINT: [-(2n ** 63n), 2n ** 63n - 1n],
  UTINYINT: [0n, 2n ** 8n - 1n],
  USMALLINT: [0n, 2n ** 16n - 1n],
  UINTEGER: [0n, 2n ** 32n - 1n],
  UBIGINT: [0n, 2n ** 64n - 1n],
};

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

// Days from 1970-01-01 to a proleptic Gregorian date, counting 400-year eras of a calendar that
// starts in March (the leap day ends its year), as the kernel's civil_time.cc DaysFromCivil.
function daysFromCivil(year: number, month: number, day: number): number {
  const y = year - (month <= 2 ? 1 : 0);
  const era = Math.trunc((y >= 0 ? y : y - 399) / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.trunc((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.trunc(yearOfEra / 4) - Math.trunc(yearOfEra / 100) + dayOfYear;
  return era * 146097 + dayOfEra - 719468;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** "YYYY-MM-DD" -> days since 1970-01-01, or null for anything else or an impossible date. */
export function parseDate(text: string): number | null {
  const match = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(text);
  if (match === null) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return null;
  const monthDays = DAYS_IN_MONTH[month - 1]! + (month === 2 && isLeapYear(year) ? 1 : 0);
  if (day > monthDays) return null;
  return daysFromCivil(year, month, day);
}

/**
 * "YYYY-MM-DD[ HH:MM:SS[.f...]]" (1 to 6 fraction digits) -> microseconds since the epoch, or
 * null. Mirrors ParseTimestamp: the date is the first 10 characters, then ' ' and the time.
 */
export function parseTimestamp(text: string): bigint | null {
  const days = parseDate(text.slice(0, 10));
  if (days === null) return null;
  let timeMicros = 0n;
  if (text.length > 10) {
    const match = /^ ([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,6}))?$/.exec(text.slice(10));
    if (match === null) return null;
    const hour = Number(match[1]);
    const minute = Number(match[2]);
    const second = Number(match[3]);
    if (hour > 23 || minute > 59 || second > 59) return null;
    const fraction = BigInt((match[4] ?? '').padEnd(6, '0'));
    timeMicros = BigInt((hour * 60 + minute) * 60 + second) * 1_000_000n + fraction;
  }
  return BigInt(days) * MICROS_PER_DAY + timeMicros;
}

// strtoll / strtoull in base 10 on a whole (already trimmed) value: optional sign, digits, and
// nothing after them. strtoull would negate "-1" into a huge value; the native runner refuses
// any '-' for unsigned types, and so does this.
function parseInteger(type: InlineType, text: string): bigint {
  const [min, max] = INTEGER_RANGES[type]!;
  if (!/^[+-]?[0-9]+$/.test(text) || (min === 0n && text[0] === '-')) throw new BadValue();
  const value = BigInt(text);
  if (value < min || value > max) throw new BadValue();
  return value;
}

const DECIMAL_SYNTAX = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;
const SPECIAL_SYNTAX = /^([+-]?)(inf|infinity|nan(\([0-9A-Za-z_]*\))?)$/i;

/**
 * strtod / strtof on a whole value, as AppendFloating uses them: decimal syntax, inf, infinity
 * and nan (any case, signed); overflow to infinity is an error, underflow is not. Hexadecimal
 * floats (which strtod also reads) are not accepted: DuckDB's cast, whose spelling the corpus
 * uses, does not read them either. Returns the value and whether it is a NaN with the sign bit
 * set (glibc's strtod("-nan")), which a JS number cannot carry.
 */
export function parseFloating(
  type: 'FLOAT' | 'DOUBLE',
  text: string,
): { value: number; negativeNaN: boolean } {
  const special = SPECIAL_SYNTAX.exec(text);
  if (special !== null) {
    const negative = special[1] === '-';
    if (special[2]!.toLowerCase().startsWith('nan')) return { value: NaN, negativeNaN: negative };
    return { value: negative ? -Infinity : Infinity, negativeNaN: false };
  }
  if (!DECIMAL_SYNTAX.test(text)) throw new BadValue();
  const asDouble = Number(text);
  const value = type === 'FLOAT' ? roundDecimalToFloat32(text, asDouble) : asDouble;
  if (!Number.isFinite(value)) throw new BadValue(); // ERANGE overflow
  return { value, negativeNaN: false };
}

// One non-null value of `type` as register() takes it: the type's physical value (days, micros).
function parseValue(type: InlineType, text: string): Cell {
  switch (type) {
    case 'TINYINT':
    case 'SMALLINT':
    case 'INTEGER':
    case 'UTINYINT':
    case 'USMALLINT':
    case 'UINTEGER':
      return Number(parseInteger(type, text));
    case 'BIGINT':
    case 'UBIGINT':
      return parseInteger(type, text);
    case 'FLOAT':
    case 'DOUBLE':
      return parseFloating(type, text).value;
    case 'DATE': {
      const days = parseDate(text);
      if (days === null) throw new BadValue('not a date (YYYY-MM-DD)');
      return days;
    }
    case 'TIMESTAMP': {
      const micros = parseTimestamp(text);
      if (micros === null) throw new BadValue('not a timestamp (YYYY-MM-DD HH:MM:SS[.ffffff])');
      return micros;
    }
    case 'VARCHAR':
      return text;
    case 'BOOLEAN':
      if (text !== 'true' && text !== 'false') throw new BadValue('not a boolean (true or false)');
      return text === 'true';
  }
}

// A float column as a typed array: the only way to hand a NaN's sign bit to the package.
function typedFloatColumn(
  type: 'FLOAT' | 'DOUBLE',
  texts: (string | null)[],
): { type: 'FLOAT' | 'DOUBLE'; values: Float32Array | Float64Array; valid: Uint8Array } {
  const values = type === 'FLOAT' ? new Float32Array(texts.length) : new Float64Array(texts.length);
  const view = new DataView(values.buffer);
  const valid = new Uint8Array(texts.length);
  texts.forEach((text, row) => {
    if (text === null) return;
    valid[row] = 1;
    const { value, negativeNaN } = parseFloating(type, text);
    values[row] = value;
    if (negativeNaN) {
      if (type === 'FLOAT') view.setUint32(row * 4, 0xffc00000, true);
      else view.setBigUint64(row * 8, 0xfff8000000000000n, true);
    }
  });
  return { type, values, valid };
}

/**
 * Builds `table` for register(). Throws CorpusFormatError naming the line, value, column and
 * type of the first value that does not parse as its column's type.
 */
export function buildInlineTable(path: string, table: InlineTable): BuiltTable {
  const built: BuiltTable = {};
  const folded = new Map<string, string>();
  table.columns.forEach(({ name, type }, c) => {
    const texts = table.rows.map((row) => row[c]!);
    const values: Cell[] = [];
    let negativeNaN = false;
    texts.forEach((text, r) => {
      if (text === null) {
        values.push(null);
        return;
      }
      try {
        if (type === 'FLOAT' || type === 'DOUBLE') {
          const parsed = parseFloating(type, text);
          values.push(parsed.value);
          negativeNaN ||= parsed.negativeNaN;
        } else {
          values.push(parseValue(type, text));
        }
      } catch (error) {
        if (!(error instanceof BadValue)) throw error;
        const why = error.message === '' ? 'not a value of the type' : error.message;
        throw new CorpusFormatError(
          `${path}:${table.rowLines[r]}: value '${text}' of column ${name} (${type}): ${why}`,
        );
      }
    });
    // Table::AddColumn's check and message, after the column's values as natively: a JS object
    // would silently merge the two columns.
    const earlier = folded.get(name.toLowerCase());
    if (earlier !== undefined) {
      throw new CorpusFormatError(
        `${path}:${table.line}: duplicate column name "${name}" (the table already has "${earlier}")`,
      );
    }
    folded.set(name.toLowerCase(), name);
    const column: BuiltColumn =
      negativeNaN && (type === 'FLOAT' || type === 'DOUBLE')
        ? typedFloatColumn(type, texts)
        : { type, values };
    // defineProperty: a column may be called __proto__, which plain assignment would swallow.
    Object.defineProperty(built, name, { value: column, enumerable: true, writable: true });
  });
  return built;
}
