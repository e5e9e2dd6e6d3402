/**
 * Exact integer arithmetic for money: products of prices, quantities and rates can pass 2^53, so
 * they are taken in BigInt and only the rounded result, checked to be a safe integer, comes back.
 */

/** round(numerator / denominator), halves away from zero, for a non-negative numerator. */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n || numerator < 0n) throw new RangeError('divideRoundHalfUp takes n >= 0, d > 0');
  return (2n * numerator + denominator) / (2n * denominator);
}

export function toSafeNumber(value: bigint, what: string): number {
  const result = Number(value);
  if (!Number.isSafeInteger(result)) throw new RangeError(`${what} is too large: ${value}`);
  return result;
}

/** round(a × b / d) for non-negative integers a and b. */
export function mulDivRoundHalfUp(a: number, b: number, d: number): number {
  return toSafeNumber(divideRoundHalfUp(BigInt(a) * BigInt(b), BigInt(d)), 'amount');
}
