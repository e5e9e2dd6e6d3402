import { Button, Stack, TextInput } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { EntryStudio } from '../../../shared/contracts/api/entry';
import { FRONT_OFFICE_QUERY } from '../../../shared/contracts/routes';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { ENTRY_CALLS, preflightUsername } from '../entry.api';
import { EntryFieldError } from '../entry-errors';
import { lookupOutcome, studioLoginHref, type LookupOutcome, type LookupPurpose } from '../lookup';
import { useEntryForm } from '../use-entry-form';
import { EntryCard } from './EntryPage';
import { StudioLogo } from './StudioLogo';
import { StudioList, StudioOption, StudioRow } from './StudioOption';

/**
 * The email step shared by /login and /delete (spec §2): Next looks the address up (preflight
 * `username`); one studio → its front-office login at once; several → a picker with Go back;
 * none → "no account associated with this email address" on the field and the button unlocks
 * (error state). The `username` route parameter prefills the field.
 */
export function EmailLookup({ purpose, footer }: { purpose: LookupPurpose; footer?: ReactNode }) {
  const { t } = useTranslation('entry');
  const api = useApiClient();
  const [params] = useSearchParams();
  const [picker, setPicker] = useState<{ username: string; studios: EntryStudio[] } | null>(null);
  const form = useEntryForm({
    initialValues: { username: params.get(FRONT_OFFICE_QUERY.username) ?? '' },
    call: ENTRY_CALLS.preflight,
    submit: async ({ username }): Promise<LookupOutcome> => {
      const outcome = lookupOutcome(purpose, username, await preflightUsername(api, username));
      if (outcome.kind === 'none') throw new EntryFieldError({ username: t('lookup.noAccount') });
      return outcome;
    },
    onSuccess: (outcome, { username }) => {
      if (outcome.kind === 'one') window.location.assign(outcome.href);
      else if (outcome.kind === 'several') setPicker({ username, studios: outcome.studios });
    },
  });

  const goBack = () => {
    setPicker(null);
    form.setValue('username', '');
    form.clearErrors();
    form.resetButton();
  };

  if (picker) {
    return (
      <EntryCard
        title={t(`${purpose}.pickTitle`)}
        subtitle={t(`${purpose}.pickSubtitle`, { email: picker.username })}
        testId={`${purpose}-picker`}
      >
        <StudioList testId="studio-list">
          {picker.studios.map((studio) =>
            purpose === 'login' ? (
              <StudioOption
                key={studio.uuid}
                name={studio.name}
                logoUrl={studio.logoUrl}
                address={studio.rootSearchAddress}
                href={studioLoginHref(purpose, studio.uuid, picker.username)}
              />
            ) : (
              <StudioRow
                key={studio.uuid}
                name={studio.name}
                logo={<StudioLogo name={studio.name} logoUrl={studio.logoUrl} placeholder={false} />}
                actionLabel={t('actions.logIn')}
                href={studioLoginHref(purpose, studio.uuid, picker.username)}
              />
            ),
          )}
        </StudioList>
        <Button variant="default" onClick={goBack} data-testid="go-back">
          {t('actions.goBack')}
        </Button>
      </EntryCard>
    );
  }

  return (
    <EntryCard title={t(`${purpose}.title`)} subtitle={t(`${purpose}.subtitle`)} testId={`${purpose}-screen`}>
      <form {...form.formProps} data-testid={`${purpose}-form`}>
        <Stack gap="md">
          <FormErrorList errors={form.formErrors} />
          <TextInput
            {...form.textProps('username')}
            type="email"
            label={t('fields.email')}
            placeholder={t('fields.emailPlaceholder')}
            autoComplete="username"
            autoFocus
            inputMode="email"
          />
          <SubmitButton state={form.buttonState} fullWidth data-testid="lookup-next">
            {t('actions.next')}
          </SubmitButton>
        </Stack>
      </form>
      {footer}
    </EntryCard>
  );
}
