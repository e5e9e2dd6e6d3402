import {
  Alert,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Paper,
  Select,
  Stack,
  Switch,
  Tabs,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  TRANSLATABLE_KINDS,
  type InterfaceText,
  type TranslatableKind,
  type TranslationItem,
} from '../../../shared/contracts/api/translations';
import { TranslationsApi } from '../../../shared/contracts/http/translations';
import type { Locale } from '../../../shared/i18n/locales';
import { ApiError } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import { useBackoffice } from '../backoffice.api';
import { SettingsLayout } from '../settings/SettingsLayout';

const keys = {
  init: (uuid: string) => ['translator', uuid, 'init'] as const,
  items: (uuid: string, language: string, kind: string, untranslated: boolean) =>
    ['translator', uuid, 'items', language, kind, untranslated] as const,
  ui: (uuid: string, language: string) => ['translator', uuid, 'interface', language] as const,
};

/**
 * Settings → Translations (issue 25): the studio's catalogue in another language it offers, each
 * text beside its default-language original, and its own wording of interface texts. A machine
 * suggestion only fills the field: nothing is saved until the person presses Save.
 */
export function TranslationsScreen() {
  const { t } = useTranslation('translations');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const init = useQuery({
    queryKey: keys.init(uuid),
    queryFn: ({ signal }) => api.call(TranslationsApi.init, { params: { uuid }, signal }),
  });
  const [tab, setTab] = useState<string | null>('catalogue');
  return (
    <SettingsLayout page="translations">
      {init.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !init.data ? (
        <Center p="xl">
          <Loader size="sm" />
        </Center>
      ) : (
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="catalogue">{t('tabs.catalogue')}</Tabs.Tab>
            <Tabs.Tab value="interface">{t('tabs.interface')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="catalogue">
            <CatalogueTranslations
              defaultLanguage={init.data.defaultLanguage}
              languages={init.data.languages}
              progress={init.data.progress}
              aiDriver={init.data.aiTranslator.driver}
            />
          </Tabs.Panel>
          <Tabs.Panel value="interface">
            <InterfaceTexts languages={init.data.languages} />
          </Tabs.Panel>
        </Tabs>
      )}
    </SettingsLayout>
  );
}

function CatalogueTranslations({
  defaultLanguage,
  languages,
  progress,
  aiDriver,
}: {
  defaultLanguage: Locale;
  languages: Locale[];
  progress: { language: Locale; kind: TranslatableKind; texts: number; translated: number }[];
  aiDriver: string | null;
}) {
  const { t } = useTranslation('translations');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const targets = languages.filter((l) => l !== defaultLanguage);
  const [language, setLanguage] = useState<Locale>(targets[0] ?? defaultLanguage);
  const [kind, setKind] = useState<TranslatableKind | 'all'>('all');
  const [untranslated, setUntranslated] = useState(false);
  const items = useQuery({
    queryKey: keys.items(uuid, language, kind, untranslated),
    queryFn: ({ signal }) =>
      api.call(TranslationsApi.collection, {
        params: { uuid },
        query: {
          language,
          ...(kind === 'all' ? {} : { kind }),
          ...(untranslated ? { untranslated: 'true' as const } : {}),
        },
        signal,
      }),
  });
  const mine = progress.filter((p) => p.language === language && (kind === 'all' || p.kind === kind));
  const texts = mine.reduce((n, p) => n + p.texts, 0);
  const translated = mine.reduce((n, p) => n + p.translated, 0);
  if (targets.length === 0) return <Text c="dimmed">{t('noOtherLanguage')}</Text>;
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('hint', { language: t(`language.${defaultLanguage}`) })}
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('language.label')}
          data={targets.map((l) => ({ value: l, label: t(`language.${l}`) }))}
          value={language}
          onChange={(v) => v && setLanguage(v as Locale)}
          allowDeselect={false}
          w={180}
          data-testid="translations-language"
        />
        <Select
          label={t('kind.label')}
          data={[
            { value: 'all', label: t('kind.all') },
            ...TRANSLATABLE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })),
          ]}
          value={kind}
          onChange={(v) => v && setKind(v as TranslatableKind | 'all')}
          allowDeselect={false}
          w={220}
          data-testid="translations-kind"
        />
        <Switch
          label={t('untranslatedOnly')}
          checked={untranslated}
          onChange={(e) => setUntranslated(e.currentTarget.checked)}
          mb={6}
          data-testid="translations-untranslated"
        />
      </Group>
      <Text size="sm" data-testid="translations-progress">
        {t('progress', { translated, count: texts })}
      </Text>
      {!aiDriver ? (
        <Text size="xs" c="dimmed">
          {t('ai.notConfigured')}
        </Text>
      ) : null}
      {items.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !items.data ? (
        <Center p="md">
          <Loader size="sm" />
        </Center>
      ) : items.data.items.length === 0 ? (
        <Text c="dimmed">{untranslated ? t('allTranslated') : t('empty')}</Text>
      ) : (
        items.data.items.map((item) => (
          <TranslationRow
            key={`${item.kind}:${item.id}:${item.field}:${item.translation}`}
            item={item}
            language={language}
            defaultLanguage={defaultLanguage}
            aiDriver={aiDriver}
          />
        ))
      )}
    </Stack>
  );
}

function TranslationRow({
  item,
  language,
  defaultLanguage,
  aiDriver,
}: {
  item: TranslationItem;
  language: Locale;
  defaultLanguage: Locale;
  aiDriver: string | null;
}) {
  const { t } = useTranslation('translations');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const queryClient = useQueryClient();
  const [value, setValue] = useState(item.translation);
  const [suggested, setSuggested] = useState(false);
  const [busy, setBusy] = useState<'save' | 'suggest' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const dirty = value.trim() !== item.translation;
  const label = `${t(`kind.${item.kind}`)} · ${t(`field.${item.field}`)}`;

  const suggest = async () => {
    setBusy('suggest');
    setError(null);
    try {
      const answer = await api.call(TranslationsApi.aiTranslate, {
        params: { uuid },
        body: { text: item.source, sourceLanguage: defaultLanguage, targetLanguage: language },
      });
      setValue(answer.suggestion);
      setSuggested(true);
    } catch (e) {
      const key = e instanceof ApiError ? e.key : null;
      setError(
        key === 'translator.quotaExceeded'
          ? t('ai.quota')
          : key === 'translator.notConfigured'
            ? t('ai.notConfigured')
            : t('ai.failed'),
      );
    } finally {
      setBusy(null);
    }
  };
  const save = async () => {
    setBusy('save');
    setError(null);
    try {
      await api.call(TranslationsApi.saveCollection, {
        params: { uuid },
        body: { language, items: [{ kind: item.kind, id: item.id, field: item.field, value: value.trim() }] },
      });
      setSuggested(false);
      await queryClient.invalidateQueries({ queryKey: ['translator', uuid] });
    } catch {
      setError(t('saveFailed'));
    } finally {
      setBusy(null);
    }
  };
  const Input = item.field === 'description' ? Textarea : TextInput;
  return (
    <Paper withBorder p="md" radius="md" data-testid="translation-row">
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Badge variant="light">{label}</Badge>
          {item.translation === '' ? (
            <Badge variant="outline" color="orange">
              {t('untranslated')}
            </Badge>
          ) : null}
        </Group>
        <Text
          size="sm"
          style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}
          data-testid="translation-source"
        >
          <Text span c="dimmed" size="xs" mr={6}>
            {defaultLanguage.toUpperCase()}
          </Text>
          {item.source}
        </Text>
        <Input
          aria-label={t('translationIn', { name: item.source, language: t(`language.${language}`) })}
          value={value}
          onChange={(e) => {
            setValue(e.currentTarget.value);
            setSuggested(false);
          }}
          readOnly={!canEdit}
          autosize={item.field === 'description' ? true : undefined}
          minRows={item.field === 'description' ? 2 : undefined}
          leftSection={
            <Text size="xs" c="dimmed">
              {language.toUpperCase()}
            </Text>
          }
          description={suggested ? t('ai.suggestionNotSaved') : undefined}
          data-testid="translation-input"
        />
        {canEdit ? (
          <Group gap="xs" justify="flex-end" wrap="wrap">
            {aiDriver ? (
              <Button
                size="xs"
                variant="light"
                loading={busy === 'suggest'}
                disabled={busy !== null}
                onClick={() => void suggest()}
                data-testid="translation-suggest"
              >
                {t('ai.suggest')}
              </Button>
            ) : null}
            <Button
              size="xs"
              loading={busy === 'save'}
              disabled={!dirty || busy !== null}
              onClick={() => void save()}
              data-testid="translation-save"
            >
              {t('save')}
            </Button>
          </Group>
        ) : null}
        {error ? (
          <Alert color="red" p="xs">
            {error}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}

const INTERFACE_PAGE = 40;

function InterfaceTexts({ languages }: { languages: Locale[] }) {
  const { t, i18n } = useTranslation('translations');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  // The language the person reads the back office in, to start with.
  const [language, setLanguage] = useState<Locale>(
    languages.find((l) => l === i18n.language) ?? languages[0]!,
  );
  const [search, setSearch] = useState('');
  const [ownOnly, setOwnOnly] = useState(false);
  const texts = useQuery({
    queryKey: keys.ui(uuid, language),
    queryFn: ({ signal }) =>
      api.call(TranslationsApi.interfaceTexts, { params: { uuid }, query: { language }, signal }),
  });
  const shown = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return (texts.data?.items ?? []).filter(
      (i) =>
        (!ownOnly || i.override !== null) &&
        (needle === '' ||
          i.key.toLowerCase().includes(needle) ||
          i.standard.toLowerCase().includes(needle) ||
          (i.override ?? '').toLowerCase().includes(needle)),
    );
  }, [texts.data, search, ownOnly]);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('interface.hint')}
      </Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t('language.label')}
          data={languages.map((l) => ({ value: l, label: t(`language.${l}`) }))}
          value={language}
          onChange={(v) => v && setLanguage(v as Locale)}
          allowDeselect={false}
          w={180}
        />
        <TextInput
          label={t('interface.search')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={260}
          data-testid="interface-search"
        />
        <Switch
          label={t('interface.ownOnly')}
          checked={ownOnly}
          onChange={(e) => setOwnOnly(e.currentTarget.checked)}
          mb={6}
        />
      </Group>
      {texts.error ? (
        <Alert color="red">{t('loadError')}</Alert>
      ) : !texts.data ? (
        <Center p="md">
          <Loader size="sm" />
        </Center>
      ) : (
        <>
          {shown.slice(0, INTERFACE_PAGE).map((item) => (
            <InterfaceTextRow
              key={`${language}:${item.key}:${item.override ?? ''}`}
              item={item}
              language={language}
            />
          ))}
          {shown.length > INTERFACE_PAGE ? (
            <Text size="sm" c="dimmed">
              {t('interface.more', { count: shown.length - INTERFACE_PAGE })}
            </Text>
          ) : null}
          {shown.length === 0 ? <Text c="dimmed">{t('empty')}</Text> : null}
        </>
      )}
    </Stack>
  );
}

function InterfaceTextRow({ item, language }: { item: InterfaceText; language: Locale }) {
  const { t } = useTranslation('translations');
  const api = useApiClient();
  const uuid = useBackoffice().studio.uuid;
  const canEdit = useBackoffice().member.abilities.includes('settings.edit');
  const queryClient = useQueryClient();
  const [value, setValue] = useState(item.override ?? '');
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const save = async () => {
    setBusy(true);
    setFailed(false);
    try {
      await api.call(TranslationsApi.saveInterfaceText, {
        params: { uuid },
        body: { language, key: item.key, value: value.trim() },
      });
      await queryClient.invalidateQueries({ queryKey: keys.ui(uuid, language) });
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="sm" radius="md" data-testid="interface-row">
      <Stack gap={6}>
        <Text size="xs" c="dimmed" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {item.key}
        </Text>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {item.standard}
        </Text>
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <TextInput
            style={{ flex: 1, minWidth: 0 }}
            aria-label={t('interface.ownWording', { key: item.key })}
            placeholder={t('interface.placeholder')}
            value={value}
            readOnly={!canEdit}
            onChange={(e) => setValue(e.currentTarget.value)}
          />
          {canEdit ? (
            <Button
              size="xs"
              loading={busy}
              disabled={value.trim() === (item.override ?? '')}
              onClick={() => void save()}
            >
              {t('save')}
            </Button>
          ) : null}
        </Group>
        {failed ? (
          <Alert color="red" p="xs">
            {t('saveFailed')}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
