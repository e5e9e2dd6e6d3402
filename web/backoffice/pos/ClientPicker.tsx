import { Badge, Button, Card, Group, Stack, Text, TextInput, Title, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useClientSearch } from './pos.api';

/** Who buys at the POS (browser and desk): a client found by name, email or phone, or a walk-in. */
export function ClientPicker({
  client,
  onChange,
}: {
  client: { id: string; name: string } | null;
  onChange(client: { id: string; name: string } | null): void;
}) {
  const { t } = useTranslation('retail');
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 300);
  const results = useClientSearch(debounced);
  return (
    <Card withBorder padding="md">
      <Group justify="space-between" mb="xs">
        <Title order={2} size="h4">
          {t('client.title')}
        </Title>
        {client ? (
          <Badge size="lg" variant="light" data-testid="pos-client">
            {client.name}
          </Badge>
        ) : (
          <Badge size="lg" variant="outline" color="gray" data-testid="pos-client">
            {t('client.walkIn')}
          </Badge>
        )}
      </Group>
      {client ? (
        <Button variant="subtle" size="xs" onClick={() => onChange(null)}>
          {t('client.toWalkIn')}
        </Button>
      ) : (
        <Stack gap={4}>
          <TextInput
            placeholder={t('client.search')}
            aria-label={t('client.search')}
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            data-testid="pos-client-search"
          />
          {q.trim().length >= 2 &&
            (results.data?.items ?? []).map((c) => (
              <UnstyledButton
                key={c.id}
                p={6}
                data-testid="pos-client-option"
                onClick={() => {
                  onChange({ id: c.id, name: `${c.firstName} ${c.lastName}` });
                  setQ('');
                }}
                style={{
                  borderRadius: 'var(--mantine-radius-sm)',
                  border: '1px solid var(--mantine-color-gray-3)',
                }}
              >
                <Text size="sm" fw={500}>
                  {c.firstName} {c.lastName}
                </Text>
                <Text size="xs" c="dimmed">
                  {c.emailAddress ?? c.phone ?? ''}
                </Text>
              </UnstyledButton>
            ))}
          {q.trim().length >= 2 && results.data?.items.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('client.none')}
            </Text>
          )}
        </Stack>
      )}
    </Card>
  );
}
