import { describe, expect, it } from 'vitest';
import { FiscalPrinterInputSchema } from '../../../shared/contracts/api/fiscal-printers';
import { describeConnection, formValuesOf, inputOf } from './fiscal-printers.api';

describe('the printer form', () => {
  it('a new form is the factory serial setting and sends a valid input once a port is given', () => {
    const values = formValuesOf(null);
    expect(values['connection.baudRate']).toBe('9600');
    const input = inputOf({
      ...values,
      name: 'Recepcja',
      stationSlug: 'front-1',
      'connection.path': '/dev/ttyUSB0',
    });
    expect(FiscalPrinterInputSchema.safeParse(input).success).toBe(true);
    expect(describeConnection(input.connection)).toBe('/dev/ttyUSB0 · 9600 8N1');
  });

  it('sends TCP when chosen, and leaves bad numbers for the server to name', () => {
    const values = {
      ...formValuesOf(null),
      name: 'X',
      stationSlug: 'bar',
      'connection.kind': 'tcp' as const,
    };
    expect(
      inputOf({ ...values, 'connection.host': '10.0.0.5', 'connection.port': '6666' }).connection,
    ).toEqual({
      kind: 'tcp',
      host: '10.0.0.5',
      port: 6666,
    });
    const bad = FiscalPrinterInputSchema.safeParse(inputOf({ ...values, 'connection.port': 'abc' }));
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toContain('connection.port');
  });
});
