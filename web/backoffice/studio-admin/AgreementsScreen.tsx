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
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AgreementVersionView } from '../../../shared/contracts/api/studio-admin';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useBackoffice } from '../backoffice.api';
import { SettingsLayout } from '../settings/SettingsLayout';
import { useStudioDates } from '../use-studio-date-time';

const KINDS = ['terms', 'privacy', 'marketing'] as const;

/**
 * Settings → Agreements: the current version of the terms, privacy notice and marketing consent with
 * how many clients accepted it, publishing a new version (clients answer it at their next visit) and
 * the export of every answer on record.
 */
export function AgreementsScreen() {
  const { t, i18n } = useTranslation('studio-admin');
  const dates = useStudioDates();
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const versions = useQuery({
    queryKey: ['studio-agreement', 'all', uuid],
    queryFn: ({ signal }) => api.call(StudioAdminApi.agreementVersions, { params: { uuid }, signal }),
  });
  const lang = i18n.language.startsWith('pl') ? 'pl' : 'en';
  return (
    <SettingsLayout page="agreements">
      {versions.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !versions.data ? (
        <Center p="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <Stack gap="lg">
          <Group justify="flex-end">
            <Button
              component="a"
              href={`/api/v4/${uuid}/studio-agreement/acceptances.csv`}
              download
              variant="default"
              data-testid="agreements-export"
            >
              {t('agreements.export')}
            </Button>
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {KINDS.map((kind) => {
              const current = versions.data.items.find((v) => v.kind === kind && v.current);
              return (
                <Paper key={kind} withBorder p="md" radius="md" data-testid={`agreement-${kind}`}>
                  <Stack gap={6}>
                    <Text fw={600}>{t(`agreements.kinds.${kind}`)}</Text>
                    {current ? (
                      <>
                        <Group gap="xs">
                          <Badge variant="light">
                            {t('agreements.version', { version: current.version })}
                          </Badge>
                          {current.required ? (
                            <Badge variant="outline">{t('agreements.required')}</Badge>
                          ) : null}
                        </Group>
                        <Text size="sm">{current.title[lang] || current.title.en || current.title.pl}</Text>
                        <Text size="xs" c="dimmed">
                          {t('agreements.published', {
                            date: dates.date(current.publishedAt),
                          })}{' '}
                          · {t('agreements.acceptedCount', { count: current.accepted })}
                        </Text>
                      </>
                    ) : (
                      <Text size="sm" c="dimmed">
                        {t('agreements.none')}
                      </Text>
                    )}
                  </Stack>
                </Paper>
              );
            })}
          </SimpleGrid>
          {canEdit ? <PublishForm versions={versions.data.items} /> : null}
        </Stack>
      )}
    </SettingsLayout>
  );
}

function PublishForm({ versions }: { versions: AgreementVersionView[] }) {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const queryClient = useQueryClient();
  const [required, setRequired] = useState(true);
  const form = useServerForm({
    initialValues: { kind: 'terms', titleEn: '', titlePl: '', contentEn: '', contentPl: '' },
    submit: (v) =>
      api.call(StudioAdminApi.publishAgreement, {
        params: { uuid },
        body: {
          kind: v.kind as (typeof KINDS)[number],
          required,
          title: { en: v.titleEn, pl: v.titlePl },
          content: { en: v.contentEn, pl: v.contentPl },
        },
      }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: ['studio-agreement', 'all', uuid] }),
  });
  // Start from the current version's texts, so a change is an edit rather than a retype.
  const startFrom = (kind: string) => {
    const current = versions.find((v) => v.kind === kind && v.current);
    form.setValue('kind', kind);
    form.setValue('titleEn', current?.title.en ?? '');
    form.setValue('titlePl', current?.title.pl ?? '');
    form.setValue('contentEn', current?.content.en ?? '');
    form.setValue('contentPl', current?.content.pl ?? '');
    setRequired(current?.required ?? kind !== 'marketing');
  };
  const area = (name: 'contentEn' | 'contentPl') => {
    const props = form.getInputProps(name);
    return (
      <Textarea
        name={props.name}
        value={props.value}
        error={props.error}
        onChange={(event) => form.setValue(name, event.currentTarget.value)}
        label={t(`agreements.${name}`)}
        autosize
        minRows={4}
        maxRows={12}
      />
    );
  };
  return (
    <form {...form.formProps} data-testid="agreement-publish-form">
      <Paper withBorder p={{ base: 'md', sm: 'lg' }} radius="md">
        <Stack gap="md">
          <Text fw={600}>{t('agreements.newVersion')}</Text>
          <Text size="sm" c="dimmed">
            {t('agreements.publishHint')}
          </Text>
          <FormErrorList errors={form.formErrors} />
          <Group align="end">
            <Select
              name="kind"
              label={t('agreements.kind')}
              data={KINDS.map((k) => ({ value: k, label: t(`agreements.kinds.${k}`) }))}
              value={form.values.kind}
              allowDeselect={false}
              onChange={(value) => value && startFrom(value)}
              data-testid="agreement-kind"
            />
            <Switch
              label={t('agreements.required')}
              checked={required}
              onChange={(e) => setRequired(e.currentTarget.checked)}
              mb={8}
            />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput {...form.getInputProps('titleEn')} label={t('agreements.titleEn')} />
            <TextInput {...form.getInputProps('titlePl')} label={t('agreements.titlePl')} />
            {area('contentEn')}
            {area('contentPl')}
          </SimpleGrid>
          <SubmitButton state={form.buttonState} w="fit-content" data-testid="agreement-publish">
            {t('agreements.publish')}
          </SubmitButton>
        </Stack>
      </Paper>
    </form>
  );
}
