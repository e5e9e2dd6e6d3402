export type JsonSchema = Record<string, unknown>;

const FORMAT_EXAMPLES: Record<string, string> = {
  uuid: '0193a1b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b',
  'date-time': '2026-12-01T09:30:00.000Z',
  date: '2026-12-01',
  email: 'anna.kowalska@example.com',
  uri: 'https://example.com/hooks/studio',
  time: '09:30',
};

/**
 * An example value for a JSON Schema (the OpenAPI document's request and response examples): the
 * schema's own default or example, else the first of an enum, a format's typical value, the lower
 * bound of a number, one item of an array. Deterministic, so the document is stable.
 */
export function exampleOf(schema: JsonSchema | undefined, depth = 0): unknown {
  if (!schema || depth > 8) return null;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) {
      const nonNull = (options as JsonSchema[]).find((o) => o.type !== 'null') ?? options[0];
      return exampleOf(nonNull as JsonSchema, depth + 1);
    }
  }
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') as string) : schema.type;
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, exampleOf(v, depth + 1)]));
    }
    case 'array':
      return [exampleOf(schema.items as JsonSchema, depth + 1)];
    case 'string':
      return (
        FORMAT_EXAMPLES[String(schema.format)] ??
        (typeof schema.minLength === 'number' && schema.minLength > 6
          ? 'x'.repeat(schema.minLength)
          : 'string')
      );
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number'
        ? schema.minimum
        : typeof schema.exclusiveMinimum === 'number'
          ? schema.exclusiveMinimum + 1
          : 1;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return null;
  }
}
