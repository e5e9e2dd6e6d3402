import {
  Alert,
  Badge,
  Button,
  Center,
  FileButton,
  Group,
  Image,
  Loader,
  Modal,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PlaceLocationView, PlaceRoomView } from '../../../shared/contracts/api/places';
import { PICTURE_TYPES } from '../../../shared/contracts/api/studio-admin';
import { ScheduleApi } from '../../../shared/contracts/http/schedule';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import {
  PLACES_ERROR_OPTIONS,
  placesCalls,
  translated,
  useCan,
  useInvalidatePlaces,
  useLocations,
  usePhone,
  useStudioUuid,
  type PlacesStatus,
} from './places.api';
import { readAsDataUrl } from '../studio-admin/studio-admin.api';

type Dialog =
  | { kind: 'location'; location: PlaceLocationView | null }
  | { kind: 'room'; locationId: string; room: PlaceRoomView | null };

/** The studio's locations, each with its address and rooms; add, edit, archive and restore. */
export function LocationsPanel() {
  const { t } = useTranslation('places');
  const can = useCan();
  const editable = can('settings.edit');
  const [status, setStatus] = useState<PlacesStatus>('active');
  const locations = useLocations(status);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidatePlaces();

  const archive = async (run: () => Promise<unknown>) => {
    setNotice(null);
    try {
      await run();
      await invalidate();
    } catch (error) {
      setNotice(toFormErrors(error, t, PLACES_ERROR_OPTIONS).form.join(' ') || t('errors.failed'));
    }
  };
  const calls = placesCalls(api, studio);

  return (
    <Stack gap="md" data-testid="locations-panel">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <SegmentedControl
          value={status}
          onChange={(v) => setStatus(v as PlacesStatus)}
          data={[
            { value: 'active', label: t('status.active') },
            { value: 'archived', label: t('status.archived') },
          ]}
          data-testid="locations-status"
        />
        {editable && (
          <Button onClick={() => setDialog({ kind: 'location', location: null })} data-testid="location-add">
            {t('locations.add')}
          </Button>
        )}
      </Group>
      {notice && (
        <Alert color="red" withCloseButton onClose={() => setNotice(null)} data-testid="places-notice">
          {notice}
        </Alert>
      )}
      {locations.isLoading && <Loader aria-label={t('loading')} />}
      {locations.error && <Alert color="red">{t('loadFailed')}</Alert>}
      {locations.data?.items.length === 0 && (
        <Text c="dimmed" data-testid="locations-empty">
          {status === 'active' ? t('locations.empty') : t('locations.emptyArchived')}
        </Text>
      )}
      {locations.data?.items.map((location) => (
        <Paper key={location.id} withBorder p="md" radius="md" data-testid="location-card">
          <Stack gap="sm">
            <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
              <div>
                <Group gap="xs">
                  <Title order={2} size="h4">
                    {location.name}
                  </Title>
                  {location.archived && <Badge color="gray">{t('status.archivedOne')}</Badge>}
                </Group>
                <Text size="sm" c="dimmed">
                  {[location.addressLine, [location.postalCode, location.city].filter(Boolean).join(' ')]
                    .filter(Boolean)
                    .join(', ') || t('locations.noAddress')}
                </Text>
                <Text size="xs" c="dimmed">
                  {t('locations.timeZone', { zone: location.timeZone })}
                </Text>
              </div>
              {editable && (
                <Group gap="xs">
                  {!location.archived && (
                    <Button
                      variant="default"
                      size="xs"
                      onClick={() => setDialog({ kind: 'location', location })}
                      data-testid="location-edit"
                    >
                      {t('edit')}
                    </Button>
                  )}
                  <Button
                    variant="subtle"
                    size="xs"
                    color={location.archived ? 'blue' : 'red'}
                    onClick={() => void archive(() => calls.archiveLocation(location.id, !location.archived))}
                    data-testid="location-archive"
                  >
                    {location.archived ? t('restore') : t('archive')}
                  </Button>
                </Group>
              )}
            </Group>
            <LocationPicture location={location} editable={can('schedule.edit') && !location.archived} />
            <Stack gap={4}>
              <Text fw={600} size="sm">
                {t('rooms.title')}
              </Text>
              {location.rooms.length === 0 && (
                <Text size="sm" c="dimmed">
                  {t('rooms.empty')}
                </Text>
              )}
              {location.rooms.map((room) => (
                <Group
                  key={room.id}
                  justify="space-between"
                  wrap="nowrap"
                  gap="xs"
                  py={4}
                  style={{ borderTop: '1px solid var(--mantine-color-gray-2)' }}
                  data-testid="room-row"
                >
                  <Group gap="xs" wrap="nowrap" miw={0}>
                    <Text size="sm" lineClamp={1} c={room.archived ? 'dimmed' : undefined}>
                      {room.name}
                    </Text>
                    <Badge variant="light" size="sm">
                      {t('rooms.capacityValue', { count: room.capacity })}
                    </Badge>
                    {room.archived && (
                      <Badge color="gray" size="sm">
                        {t('status.archivedOne')}
                      </Badge>
                    )}
                  </Group>
                  {editable && !location.archived && (
                    <Group gap={4} wrap="nowrap">
                      {!room.archived && (
                        <Button
                          variant="subtle"
                          size="compact-xs"
                          onClick={() => setDialog({ kind: 'room', locationId: location.id, room })}
                          data-testid="room-edit"
                        >
                          {t('edit')}
                        </Button>
                      )}
                      <Button
                        variant="subtle"
                        size="compact-xs"
                        color={room.archived ? 'blue' : 'red'}
                        onClick={() => void archive(() => calls.archiveRoom(room.id, !room.archived))}
                        data-testid="room-archive"
                      >
                        {room.archived ? t('restore') : t('archive')}
                      </Button>
                    </Group>
                  )}
                </Group>
              ))}
              {editable && !location.archived && (
                <Group>
                  <Button
                    variant="light"
                    size="xs"
                    onClick={() => setDialog({ kind: 'room', locationId: location.id, room: null })}
                    data-testid="room-add"
                  >
                    {t('rooms.add')}
                  </Button>
                </Group>
              )}
            </Stack>
          </Stack>
        </Paper>
      ))}
      <LocationDialog
        location={dialog?.kind === 'location' ? dialog.location : undefined}
        onClose={() => setDialog(null)}
      />
      <RoomDialog
        target={dialog?.kind === 'room' ? { locationId: dialog.locationId, room: dialog.room } : undefined}
        onClose={() => setDialog(null)}
      />
    </Stack>
  );
}

/**
 * A location's picture (GET location/collection carries it): uploaded as a file, resized and
 * stored by the server (`POST location/{location}/picture` with a data URL), or removed.
 */
function LocationPicture({ location, editable }: { location: PlaceLocationView; editable: boolean }) {
  const { t } = useTranslation('places');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidatePlaces();
  const [error, setError] = useState<string | null>(null);
  const params = { uuid: studio, location: location.id };
  const change = useMutation({
    mutationFn: async (file: File | null) =>
      api.call(ScheduleApi.setLocationPicture, {
        params,
        body: file ? { dataUrl: await readAsDataUrl(file) } : { pictureUrl: null },
      }),
    onSuccess: async () => {
      setError(null);
      await invalidate();
    },
    onError: () => setError(t('locations.pictureError')),
  });
  if (!location.pictureUrl && !editable) return null;
  return (
    <Group gap="sm" align="center" wrap="wrap" data-testid="location-picture">
      <Center
        w={120}
        h={72}
        bg="gray.0"
        style={{ borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden', flexShrink: 0 }}
      >
        {location.pictureUrl ? (
          <Image
            src={location.pictureUrl}
            alt={t('locations.pictureAlt', { name: location.name })}
            w={120}
            h={72}
            fit="cover"
            data-testid="location-picture-image"
          />
        ) : (
          <Text size="xs" c="dimmed" ta="center">
            {t('locations.noPicture')}
          </Text>
        )}
      </Center>
      {editable && (
        <Stack gap={4}>
          <Group gap="xs">
            <FileButton accept={PICTURE_TYPES.join(',')} onChange={(file) => file && change.mutate(file)}>
              {(props) => (
                <Button
                  {...props}
                  variant="light"
                  size="xs"
                  loading={change.isPending && change.variables !== null}
                  data-testid="location-picture-upload"
                >
                  {location.pictureUrl ? t('locations.pictureReplace') : t('locations.pictureUpload')}
                </Button>
              )}
            </FileButton>
            {location.pictureUrl && (
              <Button
                variant="subtle"
                color="red"
                size="xs"
                loading={change.isPending && change.variables === null}
                onClick={() => change.mutate(null)}
                data-testid="location-picture-remove"
              >
                {t('locations.pictureRemove')}
              </Button>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t('locations.pictureHint')}
          </Text>
        </Stack>
      )}
      {error && (
        <Alert color="red" variant="light" w="100%" data-testid="location-picture-error">
          {error}
        </Alert>
      )}
    </Group>
  );
}

/** `location`: undefined = closed, null = new. */
function LocationDialog({
  location,
  onClose,
}: {
  location: PlaceLocationView | null | undefined;
  onClose(): void;
}) {
  const { t } = useTranslation('places');
  const phone = usePhone();
  return (
    <Modal
      opened={location !== undefined}
      onClose={onClose}
      title={location ? t('locations.editTitle') : t('locations.createTitle')}
      fullScreen={phone}
    >
      {location !== undefined && (
        <LocationForm key={location?.id ?? 'new'} location={location} onDone={onClose} />
      )}
    </Modal>
  );
}

function LocationForm({ location, onDone }: { location: PlaceLocationView | null; onDone(): void }) {
  const { t } = useTranslation('places');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidatePlaces();
  const form = useServerForm({
    initialValues: {
      name: location?.name ?? '',
      addressLine: location?.addressLine ?? '',
      postalCode: location?.postalCode ?? '',
      city: location?.city ?? '',
    },
    submit: (v) =>
      translated(t, () =>
        location
          ? placesCalls(api, studio).updateLocation(location.id, v)
          : placesCalls(api, studio).createLocation(v),
      ),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
    errorOptions: PLACES_ERROR_OPTIONS,
  });
  return (
    <form {...form.formProps} data-testid="location-form">
      <Stack gap="sm">
        <FormErrorList errors={form.formErrors} />
        <TextInput {...form.getInputProps('name')} label={t('locations.name')} required data-autofocus />
        <TextInput {...form.getInputProps('addressLine')} label={t('locations.addressLine')} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput {...form.getInputProps('postalCode')} label={t('locations.postalCode')} />
          <TextInput {...form.getInputProps('city')} label={t('locations.city')} />
        </SimpleGrid>
        <Text size="xs" c="dimmed">
          {t('locations.timeZoneHint')}
        </Text>
        <Group justify="flex-end">
          <SubmitButton state={form.buttonState} data-testid="location-submit">
            {location ? t('save') : t('create')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}

function RoomDialog({
  target,
  onClose,
}: {
  target: { locationId: string; room: PlaceRoomView | null } | undefined;
  onClose(): void;
}) {
  const { t } = useTranslation('places');
  const phone = usePhone();
  return (
    <Modal
      opened={target !== undefined}
      onClose={onClose}
      title={target?.room ? t('rooms.editTitle') : t('rooms.createTitle')}
      fullScreen={phone}
    >
      {target && <RoomForm key={target.room?.id ?? 'new'} {...target} onDone={onClose} />}
    </Modal>
  );
}

/** A number field's text as the API wants it: a number, or the text itself so the server names the error. */
export const numberOrText = (v: string): number | string => (/^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v);

function RoomForm({
  locationId,
  room,
  onDone,
}: {
  locationId: string;
  room: PlaceRoomView | null;
  onDone(): void;
}) {
  const { t } = useTranslation('places');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidatePlaces();
  const form = useServerForm({
    initialValues: { name: room?.name ?? '', capacity: room ? String(room.capacity) : '' },
    submit: (v) =>
      translated(t, () => {
        const input = { name: v.name, capacity: numberOrText(v.capacity) as number };
        return room
          ? placesCalls(api, studio).updateRoom(room.id, input)
          : placesCalls(api, studio).createRoom(locationId, input);
      }),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
    errorOptions: PLACES_ERROR_OPTIONS,
  });
  return (
    <form {...form.formProps} data-testid="room-form">
      <Stack gap="sm">
        <FormErrorList errors={form.formErrors} />
        <TextInput {...form.getInputProps('name')} label={t('rooms.name')} required data-autofocus />
        <TextInput
          {...form.getInputProps('capacity')}
          label={t('rooms.capacity')}
          description={t('rooms.capacityHint')}
          inputMode="numeric"
          required
          w={200}
        />
        <Group justify="flex-end">
          <SubmitButton state={form.buttonState} data-testid="room-submit">
            {room ? t('save') : t('create')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
