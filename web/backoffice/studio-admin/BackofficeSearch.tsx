import { Badge, Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ClientsApi } from '../../../shared/contracts/http/clients';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SEARCH_DELAY_MS = 250;

interface Option {
  value: string;
  path: string;
  label: string;
  kind: string;
}

/**
 * The back office's search box (sidebar, above the sections): a name, e-mail or phone finds clients
 * (`POST backoffice/search`); a pasted id — from a webhook delivery, an API log, a provider's
 * statement, an e-mail link — is asked about with `POST uuid` (issue 25, "open by id") and opens
 * the page that shows it.
 */
export function BackofficeSearch() {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const navigate = useNavigate();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [text, setText] = useState('');
  const [debounced] = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const isId = UUID.test(debounced);

  const byId = useQuery({
    queryKey: ['studio-admin', 'open-by-id', uuid, debounced.toLowerCase()],
    queryFn: ({ signal }) =>
      api.call(StudioAdminApi.postUuid, {
        params: { uuid },
        body: { uuid: debounced.toLowerCase() },
        signal,
      }),
    enabled: isId,
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  const clients = useQuery({
    queryKey: ['studio-admin', 'search', uuid, debounced],
    queryFn: ({ signal }) =>
      api.call(ClientsApi.postBackofficeSearch, {
        params: { uuid },
        body: { queryString: debounced },
        signal,
      }),
    enabled: !isId && debounced.length >= 2,
  });

  const options: Option[] = isId
    ? byId.data
      ? [
          {
            value: byId.data.id,
            path: byId.data.path,
            label: byId.data.label,
            kind: t(`openById.types.${byId.data.type}`),
          },
        ]
      : []
    : (clients.data?.clients ?? []).map((client) => ({
        value: client.id,
        path: `/clients/${client.id}`,
        label: `${client.firstName} ${client.lastName}`.trim(),
        kind: client.emailAddress ?? client.phone ?? '',
      }));
  const loading = isId ? byId.isFetching : clients.isFetching;
  const notFound = isId && byId.error instanceof ApiError && byId.error.status === 404;
  const searched = isId ? byId.isFetched : clients.isFetched && debounced.length >= 2;

  const open = (option: Option) => {
    combobox.closeDropdown();
    setText('');
    navigate(option.path);
  };

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(value) => {
        const option = options.find((o) => o.value === value);
        if (option) open(option);
      }}
    >
      <Combobox.Target>
        <TextInput
          value={text}
          onChange={(event) => {
            setText(event.currentTarget.value);
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
          }}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => combobox.closeDropdown()}
          onKeyDown={(event) => {
            // Enter on a found id opens it without choosing it first.
            if (event.key === 'Enter' && isId && options[0] && combobox.getSelectedOptionIndex() < 0) {
              event.preventDefault();
              open(options[0]);
            }
          }}
          placeholder={t('openById.placeholder')}
          aria-label={t('openById.label')}
          rightSection={loading ? <Loader size="xs" /> : null}
          size="sm"
          data-testid="backoffice-search"
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={debounced.length < 2} data-testid="backoffice-search-results">
        <Combobox.Options>
          {options.map((option) => (
            <Combobox.Option value={option.value} key={option.value} data-testid="backoffice-search-option">
              <Group gap={6} wrap="nowrap" justify="space-between">
                <Text size="sm" fw={500} lineClamp={2}>
                  {option.label || option.value}
                </Text>
                {isId ? (
                  <Badge size="xs" variant="light" style={{ flexShrink: 0 }}>
                    {option.kind}
                  </Badge>
                ) : null}
              </Group>
              {!isId && option.kind ? (
                <Text size="xs" c="dimmed" lineClamp={1}>
                  {option.kind}
                </Text>
              ) : null}
            </Combobox.Option>
          ))}
          {options.length === 0 && searched && !loading ? (
            <Combobox.Empty data-testid="backoffice-search-empty">
              {notFound ? t('openById.notFound') : isId ? t('openById.failed') : t('openById.noClients')}
            </Combobox.Empty>
          ) : null}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
