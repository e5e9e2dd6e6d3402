import { describe, expect, it } from 'vitest';
import { IBAN_MESSAGES, NIP_MESSAGES, TAX_ID_FORMAT_MESSAGE } from '../../../shared/contracts/api/invoices';
import { ApiError } from '../../lib/api-client';
import { invoiceFormErrors, nipCheckFailure, translateInvoiceMessage } from './invoices.api';

/** A stand-in for i18next's `t`: the key and its options, so the tests see what would be looked up. */
const t = (key: string, options?: Record<string, unknown>) =>
  options && 'count' in options ? `${key}#${String(options.count)}` : key;

const refused = (fields: Record<string, string[]>) =>
  new ApiError(400, { error: { code: 1000, key: 'request.invalid', message: 'invalid', fields } });

describe('invoice field messages are shown by key, never as the server’s English', () => {
  it.each([
    [NIP_MESSAGES.format, 'invoices:fieldErrors.nipFormat'],
    [NIP_MESSAGES.checksum, 'invoices:fieldErrors.nipChecksum'],
    [TAX_ID_FORMAT_MESSAGE, 'invoices:fieldErrors.taxIdFormat'],
    [IBAN_MESSAGES.format, 'invoices:fieldErrors.ibanFormat'],
    [IBAN_MESSAGES.checksum, 'invoices:fieldErrors.ibanChecksum'],
    ['at least 1', 'invoices:fieldErrors.min#1'],
    ['at most 365', 'invoices:fieldErrors.max#365'],
    ['at most 40 characters', 'invoices:fieldErrors.maxLength#40'],
  ])('%s', (message, key) => {
    expect(translateInvoiceMessage(message, t)).toBe(key);
  });

  it('an unknown message is shown as sent (better than nothing)', () => {
    expect(translateInvoiceMessage('something new', t)).toBe('something new');
  });

  it('a refused issue puts the translated message on the field', () => {
    const errors = invoiceFormErrors(refused({ 'buyer.taxId': [NIP_MESSAGES.checksum] }), t);
    expect(errors).toEqual({ fields: { 'buyer.taxId': 'invoices:fieldErrors.nipChecksum' }, form: [] });
  });

  it('the NIP check says why, from the query field the server names', () => {
    expect(nipCheckFailure(refused({ 'query.taxIdentificationNumber': [NIP_MESSAGES.format] }), t)).toBe(
      'invoices:fieldErrors.nipFormat',
    );
    expect(nipCheckFailure(new Error('offline'), t)).toBe('common:errors.generalWithCode');
  });
});
