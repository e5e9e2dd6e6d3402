export interface NumberBounds {
  min?: number;
  max?: number;
}

/**
 * Spec §5: a value outside min/max is replaced by min — above max included, deliberately not max.
 * NaN and ±Infinity are not numbers a field can hold, so they are out of range too.
 * Without a min there is nothing the spec replaces with, so a value above max becomes max, and a
 * non-number becomes max or else 0.
 */
export function clampNumber(value: number, bounds: NumberBounds = {}): number {
  const { min, max } = bounds;
  const fallback = min ?? max ?? 0;
  if (!Number.isFinite(value)) return fallback;
  if (min !== undefined && value < min) return min;
  if (max !== undefined && value > max) return fallback;
  return value;
}
