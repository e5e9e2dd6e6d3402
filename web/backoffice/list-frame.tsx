import {
  Alert,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Paper,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { StackProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client';
import { errorCodeLabel, failureText, isNetworkFailure } from '../lib/form-errors';
import { CenteredMessage } from '../ui/CenteredMessage';

/**
 * The frame the back office's list screens share: the section title with its tabs, the filter bar,
 * the loading / failed / empty states, the phone cards and the "load more" button. Each screen gives
 * its own texts and test ids; the markup is the same everywhere.
 */

/** Phones get cards instead of tables (breakpoint `sm`). */
export function usePhone(): boolean {
  return useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
}

export interface SectionTab<T extends string> {
  value: T;
  label: string;
  testId: string;
  hidden?: boolean;
}

/** A section's title over its tabs; `children` is the open tab's panel. */
export function TabbedSection<T extends string>(props: {
  title: string;
  tab: T;
  tabs: SectionTab<T>[];
  onChange(tab: T): void;
  /** Many tabs: scroll them sideways on a phone rather than wrap. */
  scrollTabs?: boolean;
  children: ReactNode;
}) {
  return (
    <Stack gap="lg" maw={1100}>
      <Title order={1} size="h2">
        {props.title}
      </Title>
      <Tabs value={props.tab} onChange={(v) => props.onChange((v ?? props.tabs[0]!.value) as T)}>
        <Tabs.List
          style={
            props.scrollTabs ? { flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' } : undefined
          }
        >
          {props.tabs
            .filter((tab) => !tab.hidden)
            .map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value} data-testid={tab.testId}>
                {tab.label}
              </Tabs.Tab>
            ))}
        </Tabs.List>
      </Tabs>
      {props.children}
    </Stack>
  );
}

/** A failed load with its status-errorcode and a retry button. */
export function ListLoadError(props: {
  title: string;
  retry: string;
  testId: string;
  error: unknown;
  onRetry(): void;
}) {
  const { t } = useTranslation('desk');
  return (
    <Alert color="red" variant="light" title={props.title} data-testid={props.testId}>
      <Group justify="space-between">
        <Text size="sm">
          {isNetworkFailure(props.error) ? t('errors.noConnection') : errorCodeLabel(props.error)}
        </Text>
        <Button size="xs" variant="default" onClick={props.onRetry}>
          {props.retry}
        </Button>
      </Group>
    </Alert>
  );
}

export function ListLoading({ label }: { label?: string }) {
  return (
    <Center py="xl">
      <Loader aria-label={label} />
    </Center>
  );
}

export function ListEmpty({ text, testId }: { text: ReactNode; testId?: string }) {
  return (
    <Paper withBorder p="lg" radius="md">
      <Text c="dimmed" ta="center" data-testid={testId}>
        {text}
      </Text>
    </Paper>
  );
}

/** The bar over a list: filters on the left (they wrap on a phone), the actions on the right. */
export function ListToolbar({
  phone,
  filters,
  actions,
}: {
  phone: boolean;
  filters: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <Group justify="space-between" align="flex-end" gap="sm">
      <Group gap="sm" align="flex-end" style={{ flex: 1 }} wrap={phone ? 'wrap' : 'nowrap'}>
        {filters}
      </Group>
      {actions}
    </Group>
  );
}

/** The list's search box (it grows; full width on a phone). */
export function ListSearch(props: {
  phone: boolean;
  label: string;
  placeholder?: string;
  value: string;
  onChange(value: string): void;
  testId: string;
}) {
  return (
    <TextInput
      label={props.label}
      placeholder={props.placeholder}
      value={props.value}
      onChange={(event) => props.onChange(event.currentTarget.value)}
      type="search"
      style={{ flex: 1, minWidth: props.phone ? '100%' : 220 }}
      data-testid={props.testId}
    />
  );
}

/** A list row as a card on a phone: the main texts on the left, the figures on the right. */
export function RowCard(props: {
  testId: string;
  /** `data-*` attributes the tests find the row by. */
  data: Record<`data-${string}`, string>;
  onOpen?: () => void;
  main: ReactNode;
  side: ReactNode;
  mainGap?: StackProps['gap'];
  sideGap?: StackProps['gap'];
}) {
  return (
    <Card
      withBorder
      padding="sm"
      radius="md"
      onClick={props.onOpen}
      style={{ cursor: props.onOpen ? 'pointer' : undefined }}
      data-testid={props.testId}
      {...props.data}
    >
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={props.mainGap ?? 4} miw={0}>
          {props.main}
        </Stack>
        <Stack gap={props.sideGap ?? 0} align="flex-end">
          {props.side}
        </Stack>
      </Group>
    </Card>
  );
}

/** "Load more" under a paged list. */
export function LoadMoreButton(props: {
  hasMore: boolean;
  loading: boolean;
  onLoad(): void;
  label: string;
  testId?: string;
}) {
  if (!props.hasMore) return null;
  return (
    <Group justify="center">
      <Button variant="default" onClick={props.onLoad} loading={props.loading} data-testid={props.testId}>
        {props.label}
      </Button>
    </Group>
  );
}

/** A failed load in the general words, with its status-errorcode and a retry (spec §8). */
export function GeneralLoadError(props: { title: string; testId?: string; error: unknown; onRetry(): void }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" variant="light" title={props.title} data-testid={props.testId}>
      <Stack gap="sm">
        <Text size="sm">{failureText(props.error, t, 'common:errors.generalWithCode')}</Text>
        <Group>
          <Button size="xs" variant="default" onClick={props.onRetry}>
            {t('common:actions.retry')}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/**
 * A settings-style screen's body by the state of its query: "no permission" for the statuses spec §8
 * words so, the general failure with a retry, a loader, or the loaded data.
 */
export function QueryBody<D>(props: {
  query: { error: unknown; isPending: boolean; data: D | undefined; refetch(): unknown };
  noPermission: { title: string; text: string; testId: string; statuses?: number[] };
  loadFailed: { title: string; testId?: string };
  loadingLabel?: string;
  children(data: D): ReactNode;
}) {
  const { query, noPermission } = props;
  if (query.error) {
    const error = query.error;
    if (error instanceof ApiError && (noPermission.statuses ?? [401, 403, 405]).includes(error.status))
      return (
        <CenteredMessage title={noPermission.title} testId={noPermission.testId}>
          {noPermission.text}
        </CenteredMessage>
      );
    return (
      <GeneralLoadError
        title={props.loadFailed.title}
        testId={props.loadFailed.testId}
        error={error}
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.isPending || query.data === undefined) return <ListLoading label={props.loadingLabel} />;
  return <>{props.children(query.data)}</>;
}

/** An intro text beside the screen's main action. */
export function IntroBar({ intro, action }: { intro: string; action: ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" gap="sm">
      <Text c="dimmed" size="sm" maw={640} style={{ flex: 1, minWidth: 240 }}>
        {intro}
      </Text>
      {action}
    </Group>
  );
}
