import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodIssuesToFields } from './zod-fields';

describe('zodIssuesToFields', () => {
  it('names each bad field with its messages, unknown keys included', () => {
    const schema = z.strictObject({ name: z.string(), age: z.number() });
    const result = schema.safeParse({ name: 1, age: 'x', extra: true });
    expect(result.success).toBe(false);
    const fields = zodIssuesToFields(result.error!.issues);
    expect(Object.keys(fields).sort()).toEqual(['age', 'extra', 'name']);
    expect(fields.extra).toEqual(['unknown field']);
  });

  it('keeps field names that are also names of Object.prototype (valueOf, constructor, __proto__)', () => {
    const schema = z.strictObject({ ok: z.string() });
    const body = JSON.parse('{"ok":"a","valueOf":{},"constructor":1,"__proto__":2}') as unknown;
    const result = schema.safeParse(body);
    expect(result.success).toBe(false);
    const fields = zodIssuesToFields(result.error!.issues);
    expect(fields.valueOf).toEqual(['unknown field']);
    expect(fields.constructor).toEqual(['unknown field']);
    expect(JSON.parse(JSON.stringify(fields))).toHaveProperty(['__proto__']);
  });
});
