import type { Knex } from 'knex';
import { v7 as uuidv7 } from 'uuid';
import { PaymentMethod } from '../../../../shared/enums/payments';
import { findStudio } from '../identity/index';
import { recordDeskPayment } from '../sales/index';
import { sellContract } from './client-contracts.service';

const lt = (en: string, pl: string) => JSON.stringify({ en: { value: en }, pl: { value: pl } });

/**
 * The demo studio's memberships (called by the demo seed after the taxes exist): "Monthly unlimited,
 * 12 months" (sold at the desk and online) and "Weekday mornings" (Mon–Fri 6:00–12:00, open-ended),
 * and one client holding the monthly contract, sold three weeks ago through the same `sellContract`
 * the desk uses, its first payment settled. Returns the client contract's id.
 */
export async function seedDemoContracts(
  trx: Knex.Transaction,
  studioId: string,
  holderId: string,
  now: Date,
): Promise<string> {
  const tax = (await trx('taxes').where({ studioId, isDefault: true }).first('id')) as
    { id: string } | undefined;
  const base = {
    studioId,
    periodUnit: 'month',
    periodLength: 1,
    activationType: 0,
    serviceTypes: JSON.stringify(['classroomPricingOption']),
    noticePeriods: 1,
    taxId: tax?.id ?? null,
    sellAtDesk: true,
    sellOnline: true,
  };
  const monthly = uuidv7();
  await trx('contracts').insert([
    {
      ...base,
      id: monthly,
      name: lt('Monthly unlimited, 12 months', 'Bez limitu, 12 miesięcy'),
      description: lt(
        'Every class, every day, for a year. Billed monthly.',
        'Wszystkie zajęcia, codziennie, przez rok. Płatne co miesiąc.',
      ),
      price: 25900,
      durationPeriods: 12,
      signUpFee: 4900,
      restrictions: JSON.stringify({}),
      position: 0,
    },
    {
      ...base,
      id: uuidv7(),
      name: lt('Weekday mornings', 'Poranki w tygodniu'),
      description: lt(
        'Classes Monday to Friday starting between 6:00 and 12:00. Cancel with a month’s notice.',
        'Zajęcia od poniedziałku do piątku zaczynające się między 6:00 a 12:00. Wypowiedzenie z miesięcznym wyprzedzeniem.',
      ),
      price: 17900,
      durationPeriods: null,
      signUpFee: 0,
      restrictions: JSON.stringify({
        timeWindows: [{ weekdays: [1, 2, 3, 4, 5], fromMinutes: 6 * 60, toMinutes: 12 * 60 }],
      }),
      position: 1,
    },
  ]);
  const studio = await findStudio(trx, studioId);
  if (!studio) throw new Error('demo studio missing');
  const staff = (await trx('memberships')
    .where({ studioId, isMember: true })
    .orderBy('id')
    .first('user_id')) as { userId: string } | undefined;
  const soldAt = new Date(now.getTime() - 21 * 86_400_000);
  const sold = await sellContract(
    trx,
    studio,
    { userId: staff?.userId ?? null, via: 'staff' },
    holderId,
    monthly,
    'desk',
    soldAt,
  );
  // Paid in cash at the desk on the day: the sale day's orders (sign-up fee, first month) settle.
  const orderIds = new Set(sold.instalments.map((i) => i.orderId).filter((id): id is string => id !== null));
  for (const orderId of orderIds)
    await recordDeskPayment(
      trx,
      studio,
      orderId,
      { method: PaymentMethod.cash },
      staff?.userId ?? holderId,
      soldAt,
    );
  return sold.id;
}
