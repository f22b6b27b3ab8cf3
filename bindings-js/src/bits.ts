// Row bitmasks as laneql and Arrow lay them out: bit i of byte i / 8, least significant first
// (laneql's 64-bit little-endian words are the same bytes).

export function getBit(bits: Uint8Array, index: number): boolean {
  return ((bits[index >> 3]! >> (index & 7)) & 1) === 1;
}

export function setBit(bits: Uint8Array, index: number): void {
  bits[index >> 3]! |= 1 << (index & 7);
}

export function clearBit(bits: Uint8Array, index: number): void {
  bits[index >> 3]! &= ~(1 << (index & 7));
}

/** A validity bitmask for `length` rows (all NULL), in whole 64-bit words: the kernel's layout. */
export function newValidity(length: number): Uint8Array {
  return new Uint8Array(Math.ceil(length / 64) * 8);
}
