import { buildSchedule, type ContractTerms } from '../../../../shared/domain/contracts';
import { localDateOf } from '../../../../shared/domain/entitlements/local-dates';
import { resolveLocaleText, type LocaleText } from '../../../../shared/domain/locale-text/locale-text';
import type { ContractActivationType } from '../../../../shared/enums/pricing-options';
import { AppError } from '../../../../shared/errors';
import type { Db } from '../../db/knex';
import type { Studio } from '../identity/index';
import { registerCartItemResolver } from '../sales/index';
import { registerLineFulfiller } from '../sales/index';
import { sellContract } from './client-contracts.service';
import { contractRow } from './contracts.service';
import type { ContractRow } from './contracts.presenter';

/**
 * Contracts in the front office's shopping cart. A contract in the cart is priced at what its sale
 * would make due on the day (sign-up fee, a pro-rata part, the first period) and becomes one
 * `contract_instalment` line of the online order whose `ref_id` is the contract. When that order is
 * paid the line is fulfilled by selling the contract (channel `online`): the client contract and its
 * schedule are created and the sale-day instalments are marked as paid by this order; later
 * instalments become orders when due, as for any contract.
 */

const termsOf = (c: ContractRow): ContractTerms => ({
  price: c.price,
  period: { unit: c.periodUnit, length: c.periodLength },
  durationPeriods: c.durationPeriods,
  activationType: c.activationType as ContractActivationType,
  proRata: c.proRata,
  signUpFee: c.signUpFee,
  noticePeriods: c.noticePeriods,
});

/** What buying this contract on `today` costs on the day. */
export function dueOnSale(contract: ContractRow, today: string): number {
  return buildSchedule(termsOf(contract), today)
    .instalments.filter((i) => i.dueOn <= today)
    .reduce((sum, i) => sum + i.amount, 0);
}

const FIRST_PAYMENT: Record<string, string> = { en: 'first payment', pl: 'pierwsza płatność' };

registerCartItemResolver(
  'contract',
  async (db: Db, studio: Studio, _clientId: string, id: string, locale: string | null, now: Date) => {
    let contract: ContractRow;
    try {
      contract = await contractRow(db, studio.id, id);
    } catch (err) {
      if (err instanceof AppError && err.status === 404) return null;
      throw err;
    }
    const name = resolveLocaleText(contract.name, locale, studio.defaultLocale);
    const language = (locale ?? studio.defaultLocale).slice(0, 2);
    // The line's name in every language the contract has, so an invoice and a screen pick theirs.
    const nameTexts: LocaleText = {};
    for (const [lang, text] of Object.entries(contract.name ?? {})) {
      if (text?.value)
        nameTexts[lang] = { value: `${text.value} — ${FIRST_PAYMENT[lang] ?? FIRST_PAYMENT.en}` };
    }
    return {
      name: `${name} — ${FIRST_PAYMENT[language] ?? FIRST_PAYMENT.en}`,
      nameTexts,
      unitPrice: dueOnSale(contract, localDateOf(now, studio.timeZone)),
      vatRate: contract.joinedTaxRateBp === null ? 'exempt' : String(contract.joinedTaxRateBp),
      problem: contract.archivedAt === null && contract.sellOnline ? null : 'cart.problem.unavailable',
      lineKind: 'contract_instalment' as const,
    };
  },
);

registerLineFulfiller('contract_instalment', async ({ trx, studio, order, now }, line) => {
  // Orders of instalments that already exist (the job's, source `contract_instalment`) give nothing.
  const source = (await trx('client_orders').where({ id: order.id }).first('source')) as { source: string };
  if (source.source !== 'online' || !order.clientId || !line.refId) return null;
  const sold = await sellContract(
    trx,
    studio,
    { userId: order.clientId, via: 'client' },
    order.clientId,
    line.refId,
    'online',
    now,
    '',
    { paidByOrderId: order.id },
  );
  return sold.id;
});
