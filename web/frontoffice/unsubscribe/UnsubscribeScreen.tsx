import { Alert, Button, Card, Loader, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import type { UnsubscribeView } from '../../../shared/contracts/api/communication';
import { CommunicationApi } from '../../../shared/contracts/http/communication';
import { useApiClient } from '../../lib/app-context';

/**
 * The footer link of a marketing message (issue 23): says from what, and unsubscribes with one
 * button, without signing in (the token in the address is the authority). Mail programs use the
 * same token through the message's List-Unsubscribe header (RFC 8058).
 */
export function UnsubscribeScreen() {
  const { token = '' } = useParams();
  const { t } = useTranslation('communication');
  const api = useApiClient();
  const [done, setDone] = useState<UnsubscribeView | null>(null);
  const [failed, setFailed] = useState(false);
  const view = useQuery({
    queryKey: ['unsubscribe', token],
    queryFn: ({ signal }) => api.call(CommunicationApi.getUnsubscribe, { params: { token }, signal }),
    retry: false,
  });
  const state = done ?? view.data;
  return (
    <Stack maw={520} mx="auto" mt="xl">
      <Card withBorder padding="lg">
        <Stack gap="md">
          <Title order={1} size="h3">
            {t('unsubscribe.title')}
          </Title>
          {view.isPending && <Loader />}
          {view.isError && <Alert color="red">{t('unsubscribe.unknown')}</Alert>}
          {state && state.unsubscribed && (
            <Alert color="green" data-testid="unsubscribe-done">
              {t('unsubscribe.done', {
                studio: state.studioName,
                channel: t(`unsubscribe.channel.${state.channel}`),
              })}
            </Alert>
          )}
          {state && !state.unsubscribed && (
            <>
              <Text>
                {t('unsubscribe.question', {
                  studio: state.studioName,
                  channel: t(`unsubscribe.channel.${state.channel}`),
                })}
              </Text>
              {failed && <Alert color="red">{t('loadFailed')}</Alert>}
              <Button
                data-testid="unsubscribe-confirm"
                onClick={() =>
                  void api
                    .call(CommunicationApi.postUnsubscribe, { params: { token } })
                    .then(setDone, () => setFailed(true))
                }
              >
                {t('unsubscribe.confirm')}
              </Button>
            </>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
