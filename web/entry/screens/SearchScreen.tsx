import { Alert, Anchor, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { frontOfficeSignupPath } from '../../../shared/contracts/routes';
import { useApiClient } from '../../lib/app-context';
import { STUDIO_SEARCH_MIN_CHARS } from '../../ui/timings';
import { EntryCard, EntryPage } from '../components/EntryPage';
import { SearchIcon } from '../components/icons';
import { StudioList, StudioOption } from '../components/StudioOption';
import { ENTRY_CALLS, entryKeys, searchStudios } from '../entry.api';
import { ENTRY_PATHS } from '../entry-routes';
import { useReportFailure } from '../reporting';
import { StudioSearch } from '../studio-search';

/**
 * /search (spec §2 "Studio search", §4): type a studio's name, pick it, sign up in its front office.
 * The timing and the states live in StudioSearch; answers are cached per query by react-query.
 */
export function SearchScreen() {
  const { t } = useTranslation('entry');
  const api = useApiClient();
  const queryClient = useQueryClient();
  const report = useReportFailure();
  const [text, setText] = useState('');
  const [search] = useState(
    () =>
      new StudioSearch({
        search: (query) =>
          queryClient.fetchQuery({
            queryKey: entryKeys.search(query),
            queryFn: ({ signal }) => searchStudios(api, query, signal),
            retry: false,
            staleTime: 30_000,
          }),
        onError: (error) => report(error, ENTRY_CALLS.search),
      }),
  );
  useEffect(() => () => search.dispose(), [search]);
  const state = useSyncExternalStore(search.subscribe, search.getState, search.getState);

  return (
    <EntryPage pageTitle={t('search.pageTitle')}>
      <EntryCard title={t('search.title')} subtitle={t('search.subtitle')} testId="search-screen" maw={560}>
        <Stack gap="md" data-testid="studio-search" data-state={state.status}>
          <TextInput
            name="queryString"
            type="search"
            label={t('fields.studioName')}
            description={t('search.minChars', { min: STUDIO_SEARCH_MIN_CHARS })}
            placeholder={t('fields.studioNamePlaceholder')}
            autoFocus
            autoComplete="off"
            leftSection={<SearchIcon />}
            value={text}
            onChange={(event) => {
              setText(event.currentTarget.value);
              search.input(event.currentTarget.value);
            }}
          />
          <div aria-live="polite">
            {state.status === 'loading' ? (
              <Group gap="sm" c="dimmed" data-testid="search-loading">
                <Loader size="sm" type="dots" />
                <Text size="sm">{t('search.loading')}</Text>
              </Group>
            ) : null}
            {state.status === 'noResults' ? (
              <Alert variant="light" color="gray" data-testid="search-no-results">
                <Stack gap={6}>
                  <Text size="sm">{t('search.noResults')}</Text>
                  {/* §8: a failed studio-name lookup still lets the user create an account. */}
                  <Text size="sm" data-testid="search-create-account">
                    {t('search.stillCreate')}{' '}
                    <Anchor component={Link} to={ENTRY_PATHS.signup}>
                      {t('actions.createAccount')}
                    </Anchor>
                  </Text>
                </Stack>
              </Alert>
            ) : null}
            {state.status === 'success' ? (
              <StudioList testId="studio-list">
                {state.studios.map((studio) => (
                  <StudioOption
                    key={studio.uuid}
                    name={studio.name}
                    logoUrl={studio.logoUrl}
                    address={studio.rootSearchAddress}
                    href={frontOfficeSignupPath(studio.uuid, { returnToRoot: true })}
                  />
                ))}
              </StudioList>
            ) : null}
          </div>
          <Button component={Link} to={ENTRY_PATHS.login} variant="default" data-testid="go-back">
            {t('actions.goBack')}
          </Button>
        </Stack>
      </EntryCard>
    </EntryPage>
  );
}
