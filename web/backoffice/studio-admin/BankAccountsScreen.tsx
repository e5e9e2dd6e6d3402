import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CURRENCIES } from '../../../shared/contracts/api/studio-admin';
import {
  StudioBankAccountInputSchema,
  type StudioBankAccountView,
} from '../../../shared/contracts/api/studio-records';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { studioRecordKeys } from '../../features/studio-records/studio-records.api';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { SettingsLayout } from '../settings/SettingsLayout';

/**
 * Settings → Bank accounts: the studio's accounts (IBAN checked), one default per currency — the one
 * invoices in that currency print and clients see as transfer instructions.
 */
export function BankAccountsScreen() {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const accounts = useQuery({
    queryKey: studioRecordKeys.accounts(uuid),
    queryFn: ({ signal }) => api.call(StudioAdminApi.bankAccounts, { params: { uuid }, signal }),
  });
  return (
    <SettingsLayout page="bankAccounts">
      {accounts.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !accounts.data ? (
        <Center p="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack gap="lg">
          <Text size="sm" c="dimmed">
            {t('bankAccounts.hint')}
          </Text>
          {accounts.data.items.length === 0 ? <Text c="dimmed">{t('bankAccounts.empty')}</Text> : null}
          {accounts.data.items.map((account) => (
            <AccountRow key={account.id} account={account} canEdit={canEdit} />
          ))}
          {canEdit ? <AddAccountForm /> : null}
        </Stack>
      )}
    </SettingsLayout>
  );
}

function AccountRow({ account, canEdit }: { account: StudioBankAccountView; canEdit: boolean }) {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  const [failed, setFailed] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: studioRecordKeys.accounts(uuid) });
  const act = (call: () => Promise<unknown>) => {
    setFailed(false);
    call().then(refresh, () => setFailed(true));
  };
  const params = { uuid, studioBankAccount: account.id };
  return (
    <Paper withBorder p="md" radius="md" data-testid="bank-account">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600}>{account.name}</Text>
            <Badge variant="light">{account.currency}</Badge>
            {account.isDefault ? <Badge variant="outline">{t('bankAccounts.default')}</Badge> : null}
          </Group>
          <Text ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
            {account.ibanPrinted}
          </Text>
          {account.bankName ? (
            <Text size="xs" c="dimmed">
              {account.bankName}
            </Text>
          ) : null}
        </Stack>
        {canEdit ? (
          <Group gap="xs">
            {!account.isDefault ? (
              <Button
                size="xs"
                variant="light"
                onClick={() =>
                  act(() => api.call(StudioAdminApi.patchBankAccount, { params, body: { isDefault: true } }))
                }
              >
                {t('bankAccounts.makeDefault')}
              </Button>
            ) : null}
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => {
                if (window.confirm(t('bankAccounts.deleteConfirm', { name: account.name })))
                  act(() => api.call(StudioAdminApi.deleteBankAccount, { params }));
              }}
            >
              {t('bankAccounts.delete')}
            </Button>
          </Group>
        ) : null}
      </Group>
      {failed ? (
        <Alert color="red" mt="sm">
          {t('bankAccounts.actionError')}
        </Alert>
      ) : null}
    </Paper>
  );
}

function AddAccountForm() {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const currency = useBackoffice().studio.currency;
  const queryClient = useQueryClient();
  const form = useServerForm({
    initialValues: { name: '', iban: '', bankName: '', currency },
    schema: StudioBankAccountInputSchema,
    submit: (v) =>
      api.call(StudioAdminApi.createBankAccount, {
        params: { uuid },
        body: { ...v, currency: v.currency as (typeof CURRENCIES)[number] },
      }),
    onSuccess: () => {
      form.setValue('name', '');
      form.setValue('iban', '');
      form.setValue('bankName', '');
      void queryClient.invalidateQueries({ queryKey: studioRecordKeys.accounts(uuid) });
    },
    errorOptions: { messagesByKey: { 'studio.bankAccountTaken': 'studio-admin:bankAccounts.taken' } },
  });
  const currencyProps = form.getInputProps('currency');
  return (
    <form {...form.formProps} data-testid="bank-account-form">
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
        <Stack gap="md">
          <Text fw={600}>{t('bankAccounts.add')}</Text>
          <FormErrorList errors={form.formErrors} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput {...form.getInputProps('name')} label={t('bankAccounts.name')} required />
            <TextInput {...form.getInputProps('iban')} label={t('bankAccounts.iban')} required />
            <TextInput {...form.getInputProps('bankName')} label={t('bankAccounts.bankName')} />
            <Select
              name="currency"
              label={t('bankAccounts.currency')}
              data={CURRENCIES.map((c: string) => ({ value: c, label: c }))}
              value={currencyProps.value}
              error={currencyProps.error}
              allowDeselect={false}
              onChange={(value) => form.setValue('currency', value ?? currency)}
            />
          </SimpleGrid>
          <SubmitButton state={form.buttonState} w="fit-content" data-testid="bank-account-save">
            {t('bankAccounts.save')}
          </SubmitButton>
        </Stack>
      </Paper>
    </form>
  );
}
