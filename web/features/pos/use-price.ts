import { useTranslation } from 'react-i18next';
import { formatPriceIn } from '../../../shared/domain/money';

/** Prices on the POS in the language on screen ("10,50 zł" in Polish, "10.50 zł" in English). */
export function usePrice(): (amount: number, currency: string) => string {
  const { i18n } = useTranslation();
  return (amount: number, currency: string) => formatPriceIn(i18n.language, amount, currency);
}
