import {
  Anchor,
  Badge,
  Card,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { Dac7Report, Dac7SellerKind } from '../../../shared/contracts/api/reports';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { money } from '../invoices/invoices.api';
import { useDac7Reports, useSetDac7Seller } from './reports.api';

/**
 * Who the studio is as a seller: a company (identified by the invoice settings) or a sole trader,
 * whom DAC7 also names with their date of birth. Only for members who keep the invoice settings.
 */
function Dac7SellerForm({ seller }: { seller: Dac7Report['seller'] }) {
  const { t } = useTranslation('reports');
  const save = useSetDac7Seller();
  const form = useServerForm({
    initialValues: {
      kind: seller.kind as string,
      firstName: seller.firstName,
      lastName: seller.lastName,
      birthDate: seller.birthDate ?? '',
    },
    submit: (v) =>
      save({
        kind: v.kind as Dac7SellerKind,
        firstName: v.firstName,
        lastName: v.lastName,
        birthDate: v.kind === 'individual' && v.birthDate ? v.birthDate : null,
      }),
  });
  return (
    <form {...form.formProps} data-testid="dac7-seller">
      <Stack gap="xs">
        <Text size="sm" fw={500}>
          {t('dac7.sellerKind')}
        </Text>
        <SegmentedControl
          value={form.values.kind}
          onChange={(v) => form.setValue('kind', v)}
          data={[
            { value: 'entity', label: t('dac7.kind.entity') },
            { value: 'individual', label: t('dac7.kind.individual') },
          ]}
          fullWidth
          maw={420}
        />
        {form.values.kind === 'individual' && (
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
            <TextInput {...form.getInputProps('firstName')} label={t('dac7.label.firstName')} />
            <TextInput {...form.getInputProps('lastName')} label={t('dac7.label.lastName')} />
            <TextInput
              {...form.getInputProps('birthDate')}
              type="date"
              label={t('dac7.label.birthDate')}
              data-testid="dac7-birth-date"
            />
          </SimpleGrid>
        )}
        <FormErrorList errors={form.formErrors} />
        <Group>
          <SubmitButton state={form.buttonState} size="xs" data-testid="dac7-seller-save">
            {t('dac7.saveSeller')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * DAC7 (dac7-report/collection): what the platform reports of the studio to the tax authority per
 * year — `requireInput` says what to fill in the invoice settings, `completed` shows the quarters.
 */
export function Dac7Card() {
  const { t, i18n } = useTranslation('reports');
  const reports = useDac7Reports(true);
  const canEdit = useBackoffice().member.abilities.includes('sales.invoices');
  const items = reports.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="md" data-testid="dac7">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('dac7.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('dac7.intro')}
        </Text>
        {canEdit && <Dac7SellerForm seller={items[0]!.seller} />}
        {items.map((r) => (
          <Stack key={r.year} gap={4}>
            <Group gap="xs">
              <Text fw={600}>{r.year}</Text>
              <Badge color={r.status === 'completed' ? 'teal' : 'orange'} variant="light">
                {t(`dac7.status.${r.status}`)}
              </Badge>
            </Group>
            {r.status === 'requireInput' && (
              <Text size="sm">
                {t('dac7.missing', { fields: r.missing.map((f) => t(`dac7.field.${f}`)).join(', ') })}{' '}
                <Anchor component={Link} to="/invoices/settings" size="sm">
                  {t('dac7.fill')}
                </Anchor>
              </Text>
            )}
            <Table.ScrollContainer minWidth={360}>
              <Table verticalSpacing={4} fz="sm">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('dac7.quarter')}</Table.Th>
                    <Table.Th ta="right">{t('dac7.consideration')}</Table.Th>
                    <Table.Th ta="right">{t('dac7.activities')}</Table.Th>
                    <Table.Th ta="right">{t('dac7.fees')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {r.quarters.map((q) => (
                    <Table.Tr key={q.quarter}>
                      <Table.Td>Q{q.quarter}</Table.Td>
                      <Table.Td ta="right">{money(q.consideration, r.currency, i18n.language)}</Table.Td>
                      <Table.Td ta="right">{q.activities}</Table.Td>
                      <Table.Td ta="right">{money(q.fees, r.currency, i18n.language)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}
