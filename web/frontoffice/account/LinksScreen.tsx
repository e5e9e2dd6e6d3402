import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { LinkedAccount } from '../../../shared/contracts/api/client-accounts';
import { UserAccountLinkRelationship } from '../../../shared/enums/users';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';
import { accountKeys, connectAccount, useFoundAccounts, useLinkActions, useLinks } from './account.api';
import { ACCOUNT_SLUGS } from './slugs';

type Relationship = UserAccountLinkRelationship;
const RELATIONSHIPS = Object.values(UserAccountLinkRelationship);

/** `user-account-link`: linked accounts (family, own accounts elsewhere), linking and unlinking. */
export function LinksScreen() {
  const { t } = useTranslation('account');
  const links = useLinks();
  return (
    <Stack gap="lg" data-testid="account-links">
      <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
        <Stack gap="md">
          <div>
            <Title order={2} size="h3">
              {t('links.title')}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {t('links.intro')}
            </Text>
          </div>
          {links.isPending ? (
            <Loader size="sm" />
          ) : !links.data ? (
            <Alert color="red" variant="light">
              {t('loadError')}
            </Alert>
          ) : links.data.items.length === 0 ? (
            <Text c="dimmed" size="sm" data-testid="links-empty">
              {t('links.empty')}
            </Text>
          ) : (
            <Stack gap="sm" data-testid="links-list">
              {links.data.items.map((link) => (
                <LinkCard key={link.id} link={link} />
              ))}
            </Stack>
          )}
        </Stack>
      </Paper>
      <ConnectForm />
      <FoundAccounts />
    </Stack>
  );
}

function LinkCard({ link }: { link: LinkedAccount }) {
  const { t } = useTranslation('account');
  const { change, remove } = useLinkActions();
  const name = `${link.user.firstName} ${link.user.lastName}`.trim();
  return (
    <Card withBorder radius="md" p="sm" data-testid="link-card">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Stack gap={4}>
          <Text fw={600}>{name}</Text>
          <Group gap={6}>
            {link.canActFor && (
              <Badge size="sm" color="teal" variant="light">
                {t('links.actFor')}
              </Badge>
            )}
            {!link.owned && (
              <Badge size="sm" color="gray" variant="light">
                {t('links.linkedByOther')}
              </Badge>
            )}
            {!link.clientHere && (
              <Badge size="sm" color="yellow" variant="light">
                {t('links.notClientHere')}
              </Badge>
            )}
          </Group>
        </Stack>
        <Group gap="xs" wrap="nowrap">
          {link.owned ? (
            <Select
              aria-label={t('links.relationship')}
              size="xs"
              w={130}
              value={link.relationship}
              onChange={(value) =>
                value && change.mutate({ id: link.id, relationship: value as Relationship })
              }
              data={RELATIONSHIPS.map((r) => ({
                value: r,
                label: t(`enums:userAccountLinkRelationship.${r}`),
              }))}
              allowDeselect={false}
              data-testid="link-relationship"
            />
          ) : (
            <Badge variant="outline">{t(`enums:userAccountLinkRelationship.${link.relationship}`)}</Badge>
          )}
          {link.canActFor && link.clientHere && (
            <Button
              size="xs"
              variant="light"
              component={Link}
              to={`/${ACCOUNT_SLUGS.profile}?user=${link.user.id}`}
              data-testid="link-profile"
            >
              {t('links.viewProfile')}
            </Button>
          )}
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={t('links.remove')}
            title={t('links.remove')}
            onClick={() => remove.mutate(link.id)}
            loading={remove.isPending}
            data-testid="link-remove"
          >
            ×
          </ActionIcon>
        </Group>
      </Group>
    </Card>
  );
}

function ConnectForm() {
  const { t } = useTranslation('account');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const form = useServerForm({
    initialValues: { emailAddress: '', password: '', relationship: 'child' },
    keepWhitespace: ['password'],
    submit: (v) =>
      connectAccount(api, studio, {
        emailAddress: v.emailAddress,
        password: v.password,
        relationship: v.relationship as Relationship,
      }),
    onSuccess: () => {
      form.setValue('emailAddress', '');
      form.setValue('password', '');
      void queryClient.invalidateQueries({ queryKey: accountKeys.links(studio) });
    },
  });
  const relationship = form.getInputProps('relationship');
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md">
      <form {...form.formProps} data-testid="link-connect-form">
        <Stack gap="md" maw={420}>
          <div>
            <Title order={3} size="h4">
              {t('links.connectTitle')}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {t('links.connectIntro')}
            </Text>
          </div>
          <FormErrorList errors={form.formErrors} />
          <TextInput
            {...form.getInputProps('emailAddress')}
            type="email"
            label={t('links.email')}
            autoComplete="off"
            required
          />
          <PasswordInput
            {...form.getInputProps('password')}
            label={t('links.password')}
            autoComplete="off"
            required
          />
          <Select
            name="relationship"
            label={t('links.relationship')}
            value={relationship.value}
            onChange={(value) => value && form.setValue('relationship', value)}
            error={relationship.error}
            data={RELATIONSHIPS.map((r) => ({
              value: r,
              label: t(`enums:userAccountLinkRelationship.${r}`),
            }))}
            allowDeselect={false}
            data-testid="link-connect-relationship"
          />
          <SubmitButton state={form.buttonState} data-testid="link-connect-submit">
            {t('links.submit')}
          </SubmitButton>
        </Stack>
      </form>
    </Paper>
  );
}

function FoundAccounts() {
  const { t } = useTranslation('account');
  const api = useApiClient();
  const studio = useStudioUuid();
  const queryClient = useQueryClient();
  const [asked, setAsked] = useState(false);
  const found = useFoundAccounts(asked);
  const link = async (userId: string) => {
    await connectAccount(api, studio, { userId, relationship: 'self' });
    await queryClient.invalidateQueries({ queryKey: accountKeys.all(studio) });
  };
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="links-find">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('links.findTitle')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('links.findIntro')}
        </Text>
        {!asked ? (
          <Button variant="default" w="fit-content" onClick={() => setAsked(true)}>
            {t('links.find')}
          </Button>
        ) : found.isPending ? (
          <Loader size="sm" />
        ) : (found.data?.items.length ?? 0) === 0 ? (
          <Text size="sm">{t('links.findEmpty')}</Text>
        ) : (
          found.data?.items.map((a) => (
            <Group key={a.userId} justify="space-between" wrap="wrap">
              <div>
                <Text fw={600}>{`${a.firstName} ${a.lastName}`.trim()}</Text>
                <Text size="xs" c="dimmed">
                  {a.studios.map((s) => s.name).join(', ')}
                </Text>
              </div>
              {a.linked ? (
                <Badge variant="light">{t('links.linked')}</Badge>
              ) : (
                <Button size="xs" onClick={() => void link(a.userId)}>
                  {t('links.linkMine')}
                </Button>
              )}
            </Group>
          ))
        )}
      </Stack>
    </Paper>
  );
}
