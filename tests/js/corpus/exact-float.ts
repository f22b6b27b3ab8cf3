// Exact binary <-> decimal arithmetic for the two places where JavaScript's own number handling
// is not what C++ does: the shortest round-trip digits of a float32 (JS only has them for
// doubles) and parsing text straight to float32 with one rounding (strtof), where
// Math.fround(Number(text)) rounds twice. Everything is done on BigInts, so there is no
// approximation to argue about; values are small (float32 exponents), so it stays cheap.

/** A finite value m * 2^e2 (m a signed integer): a double, or a midpoint between two floats. */
interface Binary {
  m: bigint;
  e2: number;
}

/** A finite decimal c * 10^e10. */
export interface Decimal {
  c: bigint;
  e10: number;
}

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** The exact value of a finite double. */
function binaryOf(x: number): Binary {
  f64[0] = x;
  const bits = u64[0]!;
  const negative = bits >> 63n === 1n;
  const exponent = Number((bits >> 52n) & 0x7ffn);
  let m = bits & 0xfffffffffffffn;
  let e2: number;
  if (exponent === 0) {
    e2 = -1074; // subnormal
  } else {
    m |= 1n << 52n;
    e2 = exponent - 1075;
  }
  return { m: negative ? -m : m, e2 };
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Sign of (decimal - binary), computed exactly. */
function compareDecimalBinary(d: Decimal, b: Binary): number {
  // Scale both sides by 10^max(-e10, 0) * 2^max(-e2, 0) so that both are integers.
  const left = d.c * pow10(Math.max(d.e10, 0)) * (1n << BigInt(Math.max(-b.e2, 0)));
  const right = b.m * (1n << BigInt(Math.max(b.e2, 0))) * pow10(Math.max(-d.e10, 0));
  return left < right ? -1 : left > right ? 1 : 0;
}

function float32Bits(x: number): number {
  f32[0] = x;
  return u32[0]!;
}

function float32FromBits(bits: number): number {
  u32[0] = bits;
  return f32[0]!;
}

/**
 * The shortest decimal digits that read back (with strtof's round-to-nearest-even) as the
 * positive finite float32 `x`, choosing the one closest to x when several have that length, as
 * C++'s std::to_chars(float) does. Returns the digits (no trailing zeros) and the decimal
 * exponent of the first digit: 0.1f -> { digits: '1', exponent: -1 }.
 */
export function shortestFloat32(x: number): { digits: string; exponent: number } {
  const bits = float32Bits(x);
  const below = bits === 0 ? 0 : float32FromBits(bits - 1);
  // Above the largest float the next "float" is 2^128, where rounding goes to infinity.
  const above = bits === 0x7f7fffff ? 2 ** 128 : float32FromBits(bits + 1);
  // Midpoints of neighbouring floats have at most 25 significant bits: exact as doubles.
  const low = binaryOf((x + below) / 2);
  const high = binaryOf((x + above) / 2);
  // A value exactly on a midpoint rounds to the float with the even significand.
  const inclusive = (bits & 1) === 0;
  const exact = binaryOf(x);
  const inside = (d: Decimal): boolean => {
    const lo = compareDecimalBinary(d, low);
    const hi = compareDecimalBinary(d, high);
    return (lo > 0 || (inclusive && lo === 0)) && (hi < 0 || (inclusive && hi === 0));
  };
  // n = floor(log10(x)), corrected exactly: the estimate can be off by one near powers of ten.
  let n = Math.floor(Math.log10(x));
  while (compareDecimalBinary({ c: 1n, e10: n }, exact) > 0) --n;
  while (compareDecimalBinary({ c: 1n, e10: n + 1 }, exact) <= 0) ++n;
  for (let precision = 1; precision <= 9; ++precision) {
    // The nearest precision-digit decimals below and above x are on x's decade's grid,
    // 10^(n - precision + 1): below x nothing of that length is closer than the grid floor,
    // and above x the grid ends at 10^(n+1), itself on the grid.
    const e10 = n - precision + 1;
    const scaledNum = exact.m * (1n << BigInt(Math.max(exact.e2, 0))) * pow10(Math.max(-e10, 0));
    const scaledDen = (1n << BigInt(Math.max(-exact.e2, 0))) * pow10(Math.max(e10, 0));
    const floor = scaledNum / scaledDen;
    const ceil = scaledNum % scaledDen === 0n ? floor : floor + 1n;
    const candidates = [floor, ceil].filter((c) => c > 0n && inside({ c, e10 }));
    if (candidates.length === 0) continue;
    let best = candidates[0]!;
    if (candidates.length === 2 && candidates[1] !== best) {
      // Closer to x: compare x - floor*10^e10 with ceil*10^e10 - x, i.e. 2x with their sum.
      const twiceX = 2n * scaledNum;
      const sum = (floor + ceil) * scaledDen;
      best = twiceX < sum ? floor : twiceX > sum ? ceil : floor % 2n === 0n ? floor : ceil;
    }
    let digits = best.toString();
    let exponent = e10 + digits.length - 1;
    digits = digits.replace(/0+$/, '');
    if (digits === '') {
      digits = '0';
      exponent = 0;
    }
    return { digits, exponent };
  }
  throw new Error(`no 9-digit decimal reads back as the float ${x}`); // cannot happen
}

/**
 * Rounds the decimal that `text` spells (already known to be decimal syntax, finite) to float32
 * once, as strtof does. `asDouble` is Number(text): correctly rounded to double, so it is on
 * the same side of every float midpoint as the exact value unless it landed exactly on one;
 * only then is the exact decimal consulted. Returns Infinity (signed) on overflow.
 */
export function roundDecimalToFloat32(text: string, asDouble: number): number {
  const magnitude = Math.abs(asDouble);
  const sign = asDouble < 0 || Object.is(asDouble, -0) ? -1 : 1;
  const rounded = Math.fround(magnitude);
  if (rounded === magnitude) return sign * rounded;
  let lower: number;
  let upper: number;
  if (rounded === Infinity) {
    lower = 3.4028234663852886e38; // FLT_MAX
    upper = 2 ** 128;
  } else if (rounded > magnitude) {
    upper = rounded;
    lower = float32FromBits(float32Bits(rounded) - 1);
  } else {
    lower = rounded;
    upper = float32FromBits(float32Bits(rounded) + 1);
  }
  const midpoint = (lower + upper) / 2; // exact: 25 significant bits
  if (magnitude !== midpoint) return sign * rounded;
  const side = compareDecimalBinary(decimalOf(text, true), binaryOf(midpoint));
  if (side === 0) return sign * rounded; // a true tie: fround's ties-to-even is strtof's
  const chosen = side > 0 ? upper : lower;
  return sign * (chosen === 2 ** 128 ? Infinity : chosen);
}

/** The exact value of decimal text [+-]digits[.digits][e[+-]digits]; `magnitude` drops the sign. */
function decimalOf(text: string, magnitude: boolean): Decimal {
  const match = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (match === null) throw new Error(`not decimal text: ${text}`);
  const fraction = match[3] ?? '';
  const c = BigInt((match[2] ?? '') + fraction || '0');
  const e10 = Number(match[4] ?? '0') - fraction.length;
  return { c: !magnitude && match[1] === '-' ? -c : c, e10 };
}
