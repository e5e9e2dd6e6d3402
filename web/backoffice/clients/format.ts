/**
 * A calendar day for people. Bare `YYYY-MM-DD` values (birth dates) are days already; instants
 * (`createdAt`, expiries) are shown as the day they fall on in the studio's time zone. The formats are
 * the product's one per language (shared/i18n/dates.ts).
 */
export { formatDate, formatDateTime } from '../../../shared/i18n/dates';
