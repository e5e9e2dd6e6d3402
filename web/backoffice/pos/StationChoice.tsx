import { Alert, Card, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PosState } from '../../../shared/contracts/ipc/pos';
import { ApiError } from '../../lib/api-client';
import { useOffline } from '../../lib/connectivity';
import { failureText } from '../../lib/form-errors';
import { StationPicker } from './ShiftPanel';
import { posStationKeys, type PosStationSink } from './station-sink';
import { useStations } from './stations.api';

/**
 * Which studio-pos station this desk is: chosen once, online (the cloud's list). A desk with none to
 * choose is told how to get one (issue 26): the studio has none yet, or this person may not list them
 * (a manager assigns one to the desk); the list is polled, so a station added meanwhile appears.
 */
export function StationChoice({ sink, state }: { sink: PosStationSink; state: PosState }) {
  const { t } = useTranslation('retail');
  const queryClient = useQueryClient();
  const desk = useTranslation('desk').t;
  const offline = useOffline();
  // Polled while none is chosen: a station the manager adds (or assigns to this desk) shows up here.
  const stations = useStations(state.station === null, 5_000);
  const forbidden = stations.error instanceof ApiError && stations.error.status === 403;
  const [error, setError] = useState<string | null>(null);
  if (state.station) return null;
  const choose = async (id: string | null) => {
    if (!id) return;
    setError(null);
    try {
      await sink.chooseStation(id);
      await queryClient.invalidateQueries({ queryKey: posStationKeys.all });
    } catch (e) {
      setError(failureText(e, t, 'errors.general'));
    }
  };
  return (
    <Card withBorder padding="md" maw={520}>
      <Stack gap="xs">
        <Text size="sm">{t('station.choose')}</Text>
        {forbidden ? (
          <Alert color="yellow" data-testid="pos-station-help">
            {desk('pos.askManager')}
          </Alert>
        ) : stations.isError && !stations.data ? (
          <Text c="red">
            {offline ? t('station.needsCloud') : failureText(stations.error, t, 'errors.general')}
          </Text>
        ) : null}
        {stations.data && stations.data.items.length === 0 && (
          <Alert color="yellow" data-testid="pos-station-help">
            {desk('pos.noStations')}
          </Alert>
        )}
        {stations.data && stations.data.items.length > 0 && (
          <StationPicker stations={stations.data.items} chosen={null} onChoose={(id) => void choose(id)} />
        )}
        {error && <Text c="red">{error}</Text>}
      </Stack>
    </Card>
  );
}
