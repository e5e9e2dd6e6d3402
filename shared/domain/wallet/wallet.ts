/**
 * A client's wallet holds no stored balance: the balance is the sum of its entries (top-ups and
 * refunds add, payments and chargebacks take).
 */
export function walletBalance(entries: ReadonlyArray<{ amount: number }>): number {
  return entries.reduce((sum, e) => sum + e.amount, 0);
}

/** A wallet payment may take the balance to zero, never below. */
export function canPayFromWallet(balance: number, amount: number): boolean {
  return Number.isSafeInteger(amount) && amount > 0 && amount <= balance;
}

/** The buttons of the top-up screen: the usual amounts within the limits (minor units). */
export function topUpChoices(min: number, max: number): number[] {
  return [50_00, 100_00, 200_00, 500_00].filter((a) => a >= min && a <= max);
}
