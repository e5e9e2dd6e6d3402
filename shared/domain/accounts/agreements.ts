/**
 * A studio's agreements a client accepts at sign-up (spec §1 "agreement"; §5: the rule that the
 * terms must be accepted is not shown — ours: terms and privacy are required, marketing consent is
 * optional and may be refused). Each kind is versioned; the current text is the highest version.
 */
export const AGREEMENT_KINDS = ['terms', 'privacy', 'marketing'] as const;
export type AgreementKind = (typeof AGREEMENT_KINDS)[number];

/** Kinds a client must accept to sign up when the studio publishes them. */
export const REQUIRED_AGREEMENT_KINDS: ReadonlySet<AgreementKind> = new Set(['terms', 'privacy']);

export interface PublishedAgreement {
  kind: AgreementKind;
  version: number;
  required: boolean;
}

export const AGREEMENT_REQUIRED_MESSAGE = 'you must accept this agreement';

/**
 * The field errors for agreements a sign-up must accept but did not (`agreements.<kind>`). Only the
 * studio's published agreements count: a studio without terms cannot require them, and an answer
 * about an agreement the studio does not publish is ignored.
 */
export function missingAgreementErrors(
  published: readonly PublishedAgreement[],
  answers: Partial<Record<AgreementKind, boolean>>,
): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const agreement of published) {
    if (agreement.required && answers[agreement.kind] !== true)
      errors[`agreements.${agreement.kind}`] = [AGREEMENT_REQUIRED_MESSAGE];
  }
  return errors;
}

/** The current (highest) version of each kind the studio publishes. */
export function currentAgreements<T extends PublishedAgreement>(all: readonly T[]): T[] {
  const byKind = new Map<AgreementKind, T>();
  for (const a of all) {
    const seen = byKind.get(a.kind);
    if (!seen || a.version > seen.version) byKind.set(a.kind, a);
  }
  return AGREEMENT_KINDS.flatMap((kind) => {
    const a = byKind.get(kind);
    return a ? [a] : [];
  });
}
