import { describe, expect, it } from 'vitest';
import { currentAgreements, missingAgreementErrors, type PublishedAgreement } from './agreements';

const published: PublishedAgreement[] = [
  { kind: 'terms', version: 2, required: true },
  { kind: 'privacy', version: 1, required: true },
  { kind: 'marketing', version: 1, required: false },
];

describe('missingAgreementErrors', () => {
  it('asks for every required agreement not accepted, by field', () => {
    expect(missingAgreementErrors(published, {})).toEqual({
      'agreements.terms': ['you must accept this agreement'],
      'agreements.privacy': ['you must accept this agreement'],
    });
  });
  it('an explicit refusal of a required agreement is an error too', () => {
    expect(Object.keys(missingAgreementErrors(published, { terms: false, privacy: true }))).toEqual([
      'agreements.terms',
    ]);
  });
  it('marketing consent may be refused', () => {
    expect(missingAgreementErrors(published, { terms: true, privacy: true, marketing: false })).toEqual({});
  });
  it('a studio that publishes no terms cannot require them', () => {
    expect(missingAgreementErrors([{ kind: 'marketing', version: 1, required: false }], {})).toEqual({});
  });
});

describe('currentAgreements', () => {
  it('keeps the highest version of each kind, in kind order', () => {
    const all = [
      { kind: 'marketing', version: 1, required: false },
      { kind: 'terms', version: 1, required: true },
      { kind: 'terms', version: 3, required: true },
      { kind: 'terms', version: 2, required: true },
    ] as PublishedAgreement[];
    expect(currentAgreements(all).map((a) => `${a.kind}@${a.version}`)).toEqual(['terms@3', 'marketing@1']);
  });
});
