import {
  Anchor,
  Button,
  Card,
  Collapse,
  Group,
  NumberInput,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { type CURRENCIES } from '../../../shared/contracts/api/studio-admin';
import {
  STUDIO_TYPE_KEYS,
  type StudioConfigureInput,
  type StudioSetupView,
  type StudioTypeKey,
} from '../../../shared/contracts/api/studio-setup';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { StudioType } from '../../../shared/enums/studios';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { FormSelect } from '../../ui/FormSelect';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice, useStudioSaved } from '../backoffice.api';
import { paymentProviderKeys } from '../settings/PaymentProviders.api';
import { regionalOptions } from './regional-options';
import { studioAdminKeys } from './studio-admin.api';
import { StudioTimeNow } from './StudioTimeNow';

const setupKey = studioAdminKeys.configure;

/**
 * The dashboard's "Set up your studio" card (issue 25, PATCH/GET configure): the checklist derived
 * from the studio's data, each step linking to where it is done, and the first step's form (type,
 * zone, currency, language, the first location and room). Hidden once dismissed or complete, and
 * from staff who may not see the studio's settings.
 */
export function SetupCard() {
  const setup = useSetup();
  if (!setup.data) return null;
  const { dismissedAt, complete } = setup.data.setup;
  if (dismissedAt || complete) return null;
  return <SetupChecklist view={setup.data} />;
}

/** GET configure, for staff who may see the studio's settings (disabled for the others). */
function useSetup() {
  const { studio, member } = useBackoffice();
  const api = useApiClient();
  return useQuery({
    queryKey: setupKey(studio.uuid),
    queryFn: ({ signal }) => api.call(StudioAdminApi.getConfigure, { params: { uuid: studio.uuid }, signal }),
    enabled: member.abilities.includes('settings.view'),
  });
}

/**
 * Settings → Studio: once the setup card was hidden with steps still to do, a way to show it again
 * (`dismissed: false`) for staff who may change the settings.
 */
export function ShowSetupAgain() {
  const { t } = useTranslation('studio-admin');
  const setup = useSetup();
  const configure = useConfigure();
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const show = useMutation({
    mutationFn: () => configure.send({ dismissed: false }),
    onSuccess: configure.saved,
  });
  if (!canEdit || !setup.data?.setup.dismissedAt || setup.data.setup.complete) return null;
  return (
    <Group gap="xs" data-testid="setup-show-again">
      <Text size="sm" c="dimmed">
        {t('setup.hidden')}
      </Text>
      <Button variant="light" size="compact-sm" onClick={() => show.mutate()} loading={show.isPending}>
        {t('setup.showAgain')}
      </Button>
    </Group>
  );
}

/**
 * Settings → Online payments: "We take payments at the desk only", the studio's explicit answer
 * to the setup's payments step (PATCH configure `paymentsAtDeskOnly`). Choosing it switches the
 * online providers off; switching one on later supersedes it (the switch then shows off).
 */
export function PaymentsAtDeskOnly() {
  const { t } = useTranslation('studio-admin');
  const setup = useSetup();
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const choose = useDeskOnlyAnswer();
  if (!setup.data) return null;
  const chosen = setup.data.values.paymentsAtDeskOnly;
  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }} data-testid="payments-desk-only">
      <Switch
        label={t('payments.deskOnly')}
        description={t(chosen ? 'payments.deskOnlyChosen' : 'payments.deskOnlyHint')}
        checked={chosen}
        disabled={!canEdit || choose.isPending}
        onChange={(event) => choose.mutate(event.currentTarget.checked)}
        data-testid="payments-desk-only-switch"
      />
    </Paper>
  );
}

/** Saves the answer "we take payments at the desk only" (true) or withdraws it (false). */
function useDeskOnlyAnswer() {
  const configure = useConfigure();
  return useMutation({
    mutationFn: (atDeskOnly: boolean) => configure.send({ paymentsAtDeskOnly: atDeskOnly }),
    onSuccess: configure.saved,
  });
}

function useConfigure() {
  const api = useApiClient();
  const queryClient = useQueryClient();
  const { uuid } = useBackoffice().studio;
  const studioSaved = useStudioSaved();
  return {
    send: (body: StudioConfigureInput) => api.call(StudioAdminApi.patchConfigure, { params: { uuid }, body }),
    saved: (view: StudioSetupView) => {
      queryClient.setQueryData(setupKey(uuid), view);
      void queryClient.invalidateQueries({ queryKey: ['studio-admin', 'settings', uuid] });
      // Payments at the desk only switches the online providers off.
      void queryClient.invalidateQueries({ queryKey: paymentProviderKeys.all(uuid) });
      // The studio's zone, currency and language are read by every screen from the init call.
      studioSaved({ ...view.values, defaultLocale: view.values.defaultLanguage });
    },
  };
}

function SetupChecklist({ view }: { view: StudioSetupView }) {
  const { t } = useTranslation('studio-admin');
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const { steps } = view.setup;
  const done = steps.filter((step) => step.done).length;
  const basicsDone = steps.find((step) => step.key === 'location')?.done ?? false;
  const [formOpen, setFormOpen] = useState(!basicsDone);
  const configure = useConfigure();
  const dismiss = useMutation({
    mutationFn: () => configure.send({ dismissed: true }),
    onSuccess: configure.saved,
  });
  const deskOnly = useDeskOnlyAnswer();
  return (
    <Card withBorder radius="md" padding="md" data-testid="setup-card">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Stack gap={2}>
            <Title order={2} size="h4">
              {t('setup.title')}
            </Title>
            <Text size="sm" c="dimmed" data-testid="setup-progress">
              {t('setup.progress', { done, total: steps.length })}
            </Text>
          </Stack>
          {canEdit ? (
            <Button
              variant="subtle"
              size="compact-sm"
              color="gray"
              onClick={() => dismiss.mutate()}
              loading={dismiss.isPending}
              data-testid="setup-dismiss"
            >
              {t('setup.dismiss')}
            </Button>
          ) : null}
        </Group>
        <Progress value={(done / steps.length) * 100} size="sm" aria-hidden />
        <SimpleGrid
          cols={{ base: 1, sm: 2, lg: 3 }}
          spacing="xs"
          verticalSpacing="xs"
          component="ol"
          p={0}
          m={0}
        >
          {steps.map((step) => (
            <Group
              key={step.key}
              component="li"
              gap="xs"
              wrap="nowrap"
              align="flex-start"
              style={{ listStyle: 'none' }}
              data-testid={`setup-step-${step.key}`}
              data-done={step.done}
            >
              <ThemeIcon
                size={22}
                radius="xl"
                variant={step.done ? 'filled' : 'outline'}
                color={step.done ? 'teal' : 'gray'}
                aria-label={step.done ? t('setup.done') : t('setup.todo')}
                role="img"
              >
                <Text span size="xs" fw={700} aria-hidden>
                  {step.done ? '✓' : ''}
                </Text>
              </ThemeIcon>
              <Stack gap={0} miw={0}>
                <Anchor
                  component={Link}
                  to={step.path}
                  size="sm"
                  fw={500}
                  td={step.done ? 'line-through' : undefined}
                >
                  {t(`setup.steps.${step.key}.title`)}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {t(`setup.steps.${step.key}.hint`)}
                </Text>
                {step.key === 'payments' && !step.done && canEdit ? (
                  <Button
                    variant="subtle"
                    size="compact-xs"
                    px={0}
                    w="fit-content"
                    onClick={() => deskOnly.mutate(true)}
                    loading={deskOnly.isPending}
                    data-testid="setup-payments-desk-only"
                  >
                    {t('payments.deskOnly')}
                  </Button>
                ) : null}
              </Stack>
            </Group>
          ))}
        </SimpleGrid>
        {canEdit ? (
          <>
            <Button
              variant={formOpen ? 'subtle' : 'light'}
              size="compact-sm"
              w="fit-content"
              onClick={() => setFormOpen((open) => !open)}
              aria-expanded={formOpen}
              data-testid="setup-basics-toggle"
            >
              {formOpen ? t('setup.basics.hide') : t('setup.basics.open')}
            </Button>
            <Collapse in={formOpen}>
              <BasicsForm view={view} />
            </Collapse>
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

type BasicsValues = {
  studioType: string;
  timeZone: string;
  currency: string;
  defaultLanguage: string;
  'location.name': string;
  'location.addressLine': string;
  'location.postalCode': string;
  'location.city': string;
  'room.name': string;
  'room.capacity': string;
};

function BasicsForm({ view }: { view: StudioSetupView }) {
  const { t } = useTranslation('studio-admin');
  const { t: te } = useTranslation('enums');
  const configure = useConfigure();
  const { values } = view;
  const form = useServerForm<BasicsValues, StudioSetupView>({
    initialValues: {
      studioType: values.studioType,
      timeZone: values.timeZone,
      currency: values.currency,
      defaultLanguage: values.defaultLanguage,
      'location.name': values.location?.name ?? '',
      'location.addressLine': values.location?.addressLine ?? '',
      'location.postalCode': values.location?.postalCode ?? '',
      'location.city': values.location?.city ?? '',
      'room.name': values.room?.name ?? '',
      'room.capacity': values.room ? String(values.room.capacity) : '',
    },
    submit: (v) => {
      const body: StudioConfigureInput = {
        studioType: v.studioType as StudioTypeKey,
        timeZone: v.timeZone,
        currency: v.currency as (typeof CURRENCIES)[number],
        defaultLanguage: v.defaultLanguage as 'en' | 'pl',
      };
      const place = [
        v['location.name'],
        v['location.addressLine'],
        v['location.postalCode'],
        v['location.city'],
      ];
      if (place.some((value) => value.trim() !== ''))
        body.location = {
          name: v['location.name'],
          addressLine: v['location.addressLine'],
          postalCode: v['location.postalCode'],
          city: v['location.city'],
        };
      if (v['room.name'].trim() !== '' || v['room.capacity'].trim() !== '')
        body.room = { name: v['room.name'], capacity: Number(v['room.capacity'] || Number.NaN) };
      return configure.send(body);
    },
    onSuccess: configure.saved,
  });
  const select = (
    name: 'studioType' | 'timeZone' | 'currency' | 'defaultLanguage',
    data: { value: string; label: string }[],
  ) => (
    <FormSelect
      of={form}
      name={name}
      label={t(`setup.basics.${name}`)}
      data={data}
      searchable={name === 'studioType'}
      data-testid={`setup-${name}`}
    />
  );
  const regional = regionalOptions(t, values.timeZone);
  const types = STUDIO_TYPE_KEYS.map((key) => ({
    value: key,
    label: te(`studioType.${StudioType[key]}`),
  })).sort((a, b) => a.label.localeCompare(b.label));
  const text = (name: keyof BasicsValues, required = false) => (
    <TextInput
      {...form.getInputProps(name)}
      label={t(`setup.basics.${name}`)}
      required={required}
      data-testid={`setup-${name.replace('.', '-')}`}
    />
  );
  const capacity = form.getInputProps('room.capacity');
  return (
    <form {...form.formProps} data-testid="setup-basics-form">
      <Stack gap="sm" pt="xs">
        <FormErrorList errors={form.formErrors} />
        <Text size="sm" c="dimmed">
          {t('setup.basics.intro')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          {select('studioType', types)}
          {select('defaultLanguage', regional.language)}
          {select('currency', regional.currency)}
          {select('timeZone', regional.timeZone)}
        </SimpleGrid>
        <StudioTimeNow testId="setup-time-now" />
        <Text fw={600} size="sm">
          {t('setup.basics.firstLocation')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          {text('location.name')}
          {text('location.addressLine')}
          {text('location.postalCode')}
          {text('location.city')}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }} spacing="sm">
          {text('room.name')}
          <NumberInput
            name="room.capacity"
            label={t('setup.basics.room.capacity')}
            value={capacity.value}
            error={capacity.error}
            min={1}
            allowDecimal={false}
            allowNegative={false}
            onChange={(value) => form.setValue('room.capacity', String(value))}
            data-testid="setup-room-capacity"
          />
        </SimpleGrid>
        <SubmitButton state={form.buttonState} w="fit-content" data-testid="setup-basics-save">
          {t('setup.basics.save')}
        </SubmitButton>
      </Stack>
    </form>
  );
}
