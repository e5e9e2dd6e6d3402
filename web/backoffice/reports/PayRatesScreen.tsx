import {
  Alert,
  Anchor,
  Button,
  Card,
  Group,
  Loader,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PAY_RATE_KINDS, type PayRate, type PayRateKind } from '../../../shared/contracts/api/reports';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { money } from '../invoices/invoices.api';
import { usePayRates, useSetPayRates } from './reports.api';

/** An amount typed as "80" or "80,50" in minor units; basis points for a percentage. */
const toMinor = (text: string) => Math.round(Number(text.replace(',', '.').replace(/\s/g, '')) * 100);

/**
 * The instructors' pay rates (manager-tools/payroll-values): what each instructor is paid per class
 * service or by default, set one at a time here (the route takes them in bulk) and removed; the
 * payroll report applies them.
 */
export function PayRatesScreen() {
  const { t, i18n } = useTranslation('reports');
  const { studio, member } = useBackoffice();
  const rates = usePayRates();
  const save = useSetPayRates();
  const canEdit = member.abilities.includes('staff.edit');
  const form = useServerForm({
    initialValues: { instructorId: '', classServiceId: '', kind: 'perClass', amount: '', minimum: '' },
    submit: (v) =>
      save({
        rates: [
          {
            instructorId: v.instructorId,
            classServiceId: v.classServiceId || null,
            kind: v.kind as PayRateKind,
            amount: toMinor(v.amount || 'x'),
            minimum: v.kind === 'perAttendee' && v.minimum ? toMinor(v.minimum) : 0,
          },
        ],
        remove: [],
      }),
  });
  const remove = (rate: PayRate) =>
    save({
      rates: [],
      remove: [{ instructorId: rate.instructorId, classServiceId: rate.classServiceId }],
    }).catch(() => undefined);
  const describe = (rate: PayRate) =>
    rate.kind === 'revenuePercent'
      ? `${new Intl.NumberFormat(i18n.language).format(rate.amount / 100)} %`
      : rate.kind === 'perAttendee'
        ? `${money(rate.amount, studio.currency, i18n.language)} (min. ${money(rate.minimum, studio.currency, i18n.language)})`
        : money(rate.amount, studio.currency, i18n.language);

  if (rates.isPending) return <Loader size="sm" />;
  if (!rates.data)
    return (
      <Alert color="red" variant="light">
        {t('empty')}
      </Alert>
    );
  const props = form.getInputProps;
  return (
    <Stack gap="md" maw={1000} data-testid="pay-rates">
      <Anchor component={Link} to="/reports" size="sm">
        ← {t('back')}
      </Anchor>
      <Title order={1} size="h2">
        {t('payroll.title')}
      </Title>
      <Text c="dimmed">{t('payroll.intro')}</Text>
      <Group gap="md">
        <Anchor component={Link} to="/reports/payroll">
          {t('payroll.report')}
        </Anchor>
        <Anchor component={Link} to="/reports/payroll-summary">
          {t('payroll.summaryLink')}
        </Anchor>
        {canEdit && (
          <Anchor component={Link} to="/reports/pay-rates/bulk" data-testid="pay-rates-bulk-link">
            {t('payroll.bulkLink')}
          </Anchor>
        )}
      </Group>
      <Card withBorder radius="md" padding={0}>
        {rates.data.items.length === 0 ? (
          <Text c="dimmed" p="md">
            {t('payroll.none')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="xs" data-testid="pay-rates-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('payroll.instructor')}</Table.Th>
                  <Table.Th>{t('payroll.classService')}</Table.Th>
                  <Table.Th>{t('payroll.kind')}</Table.Th>
                  <Table.Th ta="right">{t('payroll.amount')}</Table.Th>
                  {canEdit && <Table.Th />}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rates.data.items.map((r) => (
                  <Table.Tr key={`${r.instructorId}:${r.classServiceId ?? ''}`}>
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={`/reports/pay-rates/instructor/${r.instructorId}`}
                        size="sm"
                      >
                        {r.instructorName}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{r.classServiceName ?? t('payroll.allClasses')}</Table.Td>
                    <Table.Td>{t(`payRule.${r.kind}`)}</Table.Td>
                    <Table.Td ta="right">{describe(r)}</Table.Td>
                    {canEdit && (
                      <Table.Td ta="right">
                        <Button variant="subtle" color="red" size="compact-xs" onClick={() => void remove(r)}>
                          {t('payroll.remove')}
                        </Button>
                      </Table.Td>
                    )}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>
      {canEdit && (
        <Card withBorder radius="md" padding="md">
          <form {...form.formProps}>
            <Stack gap="sm">
              <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm">
                <Select
                  label={t('payroll.instructor')}
                  data={rates.data.instructors.map((i) => ({ value: i.id, label: i.name }))}
                  value={form.values.instructorId || null}
                  onChange={(v) => form.setValue('instructorId', v ?? '')}
                  error={props('instructorId').error}
                  searchable
                  data-testid="pay-rate-instructor"
                />
                <Select
                  label={t('payroll.classService')}
                  data={[
                    { value: '', label: t('payroll.allClasses') },
                    ...rates.data.classServices.map((s) => ({ value: s.id, label: s.name })),
                  ]}
                  value={form.values.classServiceId}
                  onChange={(v) => form.setValue('classServiceId', v ?? '')}
                  allowDeselect={false}
                />
                <Select
                  label={t('payroll.kind')}
                  data={PAY_RATE_KINDS.map((k) => ({ value: k, label: t(`payRule.${k}`) }))}
                  value={form.values.kind}
                  onChange={(v) => form.setValue('kind', v ?? 'perClass')}
                  allowDeselect={false}
                  data-testid="pay-rate-kind"
                />
                <TextInput
                  {...props('amount')}
                  label={form.values.kind === 'revenuePercent' ? t('payroll.percent') : t('payroll.amount')}
                  inputMode="decimal"
                  data-testid="pay-rate-amount"
                />
                {form.values.kind === 'perAttendee' && (
                  <TextInput {...props('minimum')} label={t('payroll.minimum')} inputMode="decimal" />
                )}
              </SimpleGrid>
              <FormErrorList errors={form.formErrors} />
              <Group>
                <SubmitButton state={form.buttonState} data-testid="pay-rate-save">
                  {t('payroll.add')}
                </SubmitButton>
              </Group>
            </Stack>
          </form>
        </Card>
      )}
    </Stack>
  );
}
