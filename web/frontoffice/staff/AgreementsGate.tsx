import { Button, Checkbox, Modal, ScrollArea, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PendingAgreement } from '../../../shared/contracts/api/studio-admin';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { useMe } from '../../features/auth/auth.api';
import { useApiClient } from '../../lib/app-context';
import { useStudioUuid } from '../studio';

/**
 * Issue 25: a signed-in client who has not answered the studio's current agreements (a new version
 * of the terms, say) is asked before going on; required ones must be ticked. Staff without a client
 * account here are never asked.
 */
export function AgreementsGate() {
  const uuid = useStudioUuid();
  const me = useMe();
  const isClient = Boolean(me.data?.memberships.find((m) => m.studioUuid === uuid)?.isClient);
  const api = useApiClient();
  const pending = useQuery({
    queryKey: ['studio-agreement', 'pending', uuid, me.data?.id],
    queryFn: ({ signal }) => api.call(StudioAdminApi.pendingAgreements, { params: { uuid }, signal }),
    enabled: isClient,
  });
  const items = pending.data?.items ?? [];
  if (!isClient || items.length === 0) return null;
  return <AgreementsDialog key={items.map((i) => i.id).join()} items={items} />;
}

function AgreementsDialog({ items }: { items: PendingAgreement[] }) {
  const { t } = useTranslation('studio-admin');
  const uuid = useStudioUuid();
  const api = useApiClient();
  const queryClient = useQueryClient();
  const [ticked, setTicked] = useState<Record<string, boolean>>({});
  const save = useMutation({
    mutationFn: () =>
      api.call(StudioAdminApi.answerAgreements, {
        params: { uuid },
        body: { answers: items.map((i) => ({ id: i.id, accepted: Boolean(ticked[i.id]) })) },
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['studio-agreement', 'pending', uuid] }),
  });
  const ready = items.every((i) => !i.required || ticked[i.id]);
  return (
    <Modal
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      size="lg"
      title={
        <Title order={2} size="h4">
          {t('agreements.gateTitle')}
        </Title>
      }
      data-testid="agreements-gate"
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {items.some((i) => i.changed) ? t('agreements.gateChanged') : t('agreements.gateText')}
        </Text>
        {items.map((i) => (
          <Stack key={i.id} gap={6} data-testid="agreement-pending">
            <Text fw={600}>{i.title}</Text>
            <ScrollArea.Autosize mah={160} type="auto">
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {i.content}
              </Text>
            </ScrollArea.Autosize>
            <Checkbox
              checked={Boolean(ticked[i.id])}
              onChange={(e) => {
                const checked = e.currentTarget.checked;
                setTicked((prev) => ({ ...prev, [i.id]: checked }));
              }}
              label={i.required ? t('agreements.acceptRequired') : t('agreements.acceptOptional')}
              data-testid={`agreement-accept-${i.kind}`}
            />
          </Stack>
        ))}
        <Button
          disabled={!ready}
          loading={save.isPending}
          onClick={() => save.mutate()}
          data-testid="agreements-continue"
        >
          {t('agreements.continue')}
        </Button>
      </Stack>
    </Modal>
  );
}
