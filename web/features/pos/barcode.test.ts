import { describe, expect, it } from 'vitest';
import { WedgeBuffer } from './barcode';

const feed = (buffer: WedgeBuffer, text: string, start: number, gap: number) => {
  let result: string | null = null;
  [...text, 'Enter'].forEach((key, i) => {
    result = buffer.push(key, start + i * gap) ?? result;
  });
  return result;
};

describe('barcode wedge buffer', () => {
  it('a fast run ended by Enter is a scan', () => {
    expect(feed(new WedgeBuffer(), '5901234123457', 1000, 8)).toBe('5901234123457');
  });

  it('slow typing is not a scan', () => {
    expect(feed(new WedgeBuffer(), 'water', 1000, 180)).toBeNull();
  });

  it('a code shorter than the minimum is not a scan', () => {
    expect(feed(new WedgeBuffer(), '12', 1000, 5)).toBeNull();
  });

  it('keys typed earlier do not stick to the next scan', () => {
    const buffer = new WedgeBuffer();
    buffer.push('x', 0);
    buffer.push('y', 300);
    expect(feed(buffer, '4006381333931', 1000, 10)).toBe('4006381333931');
  });

  it('ignores keys that are not characters', () => {
    const buffer = new WedgeBuffer();
    buffer.push('Shift', 0);
    expect(feed(buffer, 'ABC-123', 2, 5)).toBe('ABC-123');
  });
});
