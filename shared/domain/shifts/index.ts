/**
 * The cash arithmetic of a POS shift, shared by the cloud (browser POS) and the station (desktop,
 * offline). Amounts are integer minor units. Only cash counts: card, transfer, wallet and voucher
 * money never reaches the drawer.
 *
 *   expected = float + cash sales − cash refunds + cash in − cash out
 *   difference = counted − expected   (negative: money missing, positive: money over)
 */

export type CashMovementKind = 'in' | 'out';

export interface CashMovement {
  kind: CashMovementKind;
  amount: number;
}

export interface ShiftCashFigures {
  float: number;
  /** Cash kept from sales: what was handed over less the change given back. */
  cashSales: number;
  cashRefunds: number;
  movements: readonly CashMovement[];
}

export interface ShiftCashTotals {
  float: number;
  cashSales: number;
  cashRefunds: number;
  cashIn: number;
  cashOut: number;
  expected: number;
}

export interface ShiftReconciliation extends ShiftCashTotals {
  counted: number;
  difference: number;
}

function assertAmount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError(`${name} must be a non-negative integer of minor units, got ${value}`);
}

export function shiftCashTotals(figures: ShiftCashFigures): ShiftCashTotals {
  assertAmount('float', figures.float);
  assertAmount('cashSales', figures.cashSales);
  assertAmount('cashRefunds', figures.cashRefunds);
  let cashIn = 0;
  let cashOut = 0;
  for (const m of figures.movements) {
    assertAmount('movement', m.amount);
    if (m.kind === 'in') cashIn += m.amount;
    else cashOut += m.amount;
  }
  return {
    float: figures.float,
    cashSales: figures.cashSales,
    cashRefunds: figures.cashRefunds,
    cashIn,
    cashOut,
    expected: figures.float + figures.cashSales - figures.cashRefunds + cashIn - cashOut,
  };
}

export function reconcileShift(figures: ShiftCashFigures, counted: number): ShiftReconciliation {
  assertAmount('counted', counted);
  const totals = shiftCashTotals(figures);
  return { ...totals, counted, difference: counted - totals.expected };
}

/**
 * Whether a cash-out of `amount` is possible now: the drawer cannot give out more than it should
 * hold. (The expected amount may itself be below zero only after refunds larger than what came in.)
 */
export function canTakeCashOut(figures: ShiftCashFigures, amount: number): boolean {
  return amount > 0 && amount <= shiftCashTotals(figures).expected;
}
