import { describe, expect, it, vi } from 'vitest';
import type { BookingResult } from '../../../../shared/contracts/api/bookings';
import type { RetailCheckoutResult } from '../../../../shared/contracts/api/retail';
import { RetailCheckoutSchema } from '../../../../shared/contracts/api/retail';
import { PaymentMethod } from '../../../../shared/enums';
import { ApiError } from '../../../lib/api-client';
import { coveringSaleInput, offersCoveringSale, sellAndEnrol } from './sell-covering-pass';

const refusal = (key: string) =>
  new ApiError(409, { error: { code: 1, key, message: key, fields: {} } } as never);
const sale = { saleId: 's1', orders: [], receipt: null, change: 0, unfulfilled: [] } as RetailCheckoutResult;
const booking = { outcome: 'booked' } as unknown as BookingResult;

describe('selling a covering pass when enrolling at the desk is refused', () => {
  it('is offered for "no pass" only, not for a full class or another failure', () => {
    expect(offersCoveringSale(refusal('visit.noPass'))).toBe(true);
    expect(offersCoveringSale(refusal('visit.classFull'))).toBe(false);
    expect(offersCoveringSale(new Error('network'))).toBe(false);
  });

  it('sells the pass paid in full, as a basket the POS checkout accepts', () => {
    const input = coveringSaleInput(
      '0190a0a0-0000-7000-8000-000000000001',
      { id: '0190a0a0-0000-7000-8000-000000000002', price: 4500 },
      PaymentMethod.terminal,
    );
    expect(input.payments).toEqual([{ method: PaymentMethod.terminal, amount: 4500 }]);
    expect(RetailCheckoutSchema.safeParse(input).success).toBe(true);
  });

  it('books only after the sale went through; a refused sale books nothing', async () => {
    const order: string[] = [];
    const outcome = await sellAndEnrol({
      checkout: async () => (order.push('checkout'), sale),
      enroll: async () => (order.push('enroll'), booking),
    });
    expect(order).toEqual(['checkout', 'enroll']);
    expect(outcome).toMatchObject({ stage: 'booked', booking });

    const enroll = vi.fn();
    await expect(
      sellAndEnrol({ checkout: () => Promise.reject(refusal('retail.declined')), enroll }),
    ).rejects.toBeInstanceOf(ApiError);
    expect(enroll).not.toHaveBeenCalled();
  });

  it('says the pass is sold when the booking after it fails (the class filled meanwhile)', async () => {
    const outcome = await sellAndEnrol({
      checkout: async () => sale,
      enroll: () => Promise.reject(refusal('visit.classFull')),
    });
    expect(outcome.stage).toBe('soldNotBooked');
  });
});
