import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';
import {
  sendMessage,
  useMessageActions,
  useMessages,
  useNotificationActions,
  useNotifications,
} from './account.api';
import { deviceTimeZone, formatDateTime } from '../../../shared/i18n/dates';

function when(iso: string, locale: string): string {
  return formatDateTime(iso, locale, deviceTimeZone());
}

/** `messages`: the studio's messages to the client (unread first marked), and writing to the studio. */
export function MessagesScreen() {
  const { t, i18n } = useTranslation('account');
  const messages = useMessages();
  const { markRead } = useMessageActions();
  return (
    <Stack gap="lg" data-testid="account-messages">
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <Stack gap="md">
          <Group justify="space-between">
            <Title order={2} size="h3">
              {t('messages.title')}
            </Title>
            {(messages.data?.unreadCount ?? 0) > 0 && (
              <Badge color="red" variant="light" data-testid="messages-unread">
                {t('messages.unread', { count: messages.data?.unreadCount })}
              </Badge>
            )}
          </Group>
          {messages.isPending ? (
            <Loader size="sm" />
          ) : !messages.data ? (
            <Alert color="red" variant="light">
              {t('loadError')}
            </Alert>
          ) : messages.data.items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('messages.empty')}
            </Text>
          ) : (
            messages.data.items.map((m) => (
              <Card
                key={m.id}
                withBorder
                radius="md"
                p="sm"
                bg={m.read ? undefined : 'blue.0'}
                data-testid="message"
              >
                <Group justify="space-between" wrap="wrap" gap={4}>
                  <Text size="xs" c="dimmed">
                    {m.from === 'studio' ? t('messages.fromStudio') : t('messages.fromYou')} ·{' '}
                    {when(m.createdAt, i18n.language)}
                  </Text>
                  {!m.read && (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      onClick={() => markRead.mutate(m.id)}
                      data-testid="message-read"
                    >
                      {t('messages.markRead')}
                    </Button>
                  )}
                </Group>
                {m.subject && <Text fw={600}>{m.subject}</Text>}
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {m.content}
                </Text>
              </Card>
            ))
          )}
        </Stack>
      </Paper>
      <WriteMessage />
    </Stack>
  );
}

function WriteMessage() {
  const { t } = useTranslation('account');
  const api = useApiClient();
  const studio = useStudioUuid();
  const { refresh } = useMessageActions();
  const form = useServerForm({
    initialValues: { subject: '', content: '' },
    submit: (v) => sendMessage(api, studio, v),
    onSuccess: () => {
      form.setValue('subject', '');
      form.setValue('content', '');
      void refresh();
    },
  });
  const content = form.getInputProps('content');
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form {...form.formProps} data-testid="message-form">
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('messages.writeTitle')}
          </Title>
          <FormErrorList errors={form.formErrors} />
          <TextInput {...form.getInputProps('subject')} label={t('messages.subject')} />
          <Textarea
            name="content"
            value={content.value}
            onChange={(event) => form.setValue('content', event.currentTarget.value)}
            error={content.error}
            label={t('messages.content')}
            autosize
            minRows={3}
            required
          />
          <SubmitButton state={form.buttonState} w="fit-content">
            {t('messages.send')}
          </SubmitButton>
        </Stack>
      </form>
    </Paper>
  );
}

/** `notifications`: what happened on the account, newest first; mark one or all read. */
export function NotificationsScreen() {
  const { t, i18n } = useTranslation('account');
  const notifications = useNotifications();
  const { markRead, markAllRead } = useNotificationActions();
  const unread = notifications.data?.unreadCount ?? 0;
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="account-notifications">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap">
          <Group gap="sm">
            <Title order={2} size="h3">
              {t('notifications.title')}
            </Title>
            {unread > 0 && (
              <Badge color="red" variant="light" data-testid="notifications-unread">
                {t('notifications.unread', { count: unread })}
              </Badge>
            )}
          </Group>
          {unread > 0 && (
            <Button
              size="xs"
              variant="light"
              onClick={() => markAllRead.mutate()}
              loading={markAllRead.isPending}
            >
              {t('notifications.markAllRead')}
            </Button>
          )}
        </Group>
        {notifications.isPending ? (
          <Loader size="sm" />
        ) : !notifications.data ? (
          <Alert color="red" variant="light">
            {t('loadError')}
          </Alert>
        ) : notifications.data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('notifications.empty')}
          </Text>
        ) : (
          notifications.data.items.map((n) => (
            <Group
              key={n.id}
              justify="space-between"
              wrap="nowrap"
              align="flex-start"
              data-testid="notification"
            >
              <div>
                <Text size="sm" fw={n.read ? 400 : 600}>
                  {t(n.titleKey, n.values)}
                </Text>
                <Text size="xs" c="dimmed">
                  {when(n.createdAt, i18n.language)}
                </Text>
              </div>
              {!n.read && (
                <Button size="compact-xs" variant="subtle" onClick={() => markRead.mutate(n.id)}>
                  {t('notifications.markRead')}
                </Button>
              )}
            </Group>
          ))
        )}
      </Stack>
    </Paper>
  );
}
