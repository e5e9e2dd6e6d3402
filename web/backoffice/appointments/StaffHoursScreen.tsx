import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { MemberSchedule } from '../../../shared/contracts/api/appointments';
import { useStudioDateTime } from '../use-studio-date-time';
import {
  fromWall,
  useAppointmentActions,
  useAppointmentInit,
  useMemberSchedule,
  useMemberUnavailability,
} from './appointments.api';
import { errorMessageOf } from './error-message';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 0];
const hhmm = (m: number) =>
  `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const minutesOf = (s: string) => {
  const [h, m] = s.split(':').map(Number);
  return (h ?? 0) * 60 + (m ?? 0);
};

/** A member of staff's weekly hours per location, dated exceptions (days off, other hours) and unavailability. */
export function StaffHoursScreen() {
  const { t } = useTranslation('appointments');
  const init = useAppointmentInit();
  const [chosen, setMember] = useState<string | null>(null);
  const members = init.data?.members ?? [];
  const member = chosen ?? members[0]?.id ?? null;
  return (
    <Stack gap="md" maw={1000}>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('hours.title')}
        </Title>
        <Button component={Link} to="/appointments" variant="default" size="xs">
          {t('calendar.title')}
        </Button>
      </Group>
      <Select
        label={t('hours.member')}
        data={members.map((m) => ({ value: m.id, label: `${m.firstName} ${m.lastName}` }))}
        value={member}
        onChange={setMember}
        allowDeselect={false}
        maw={360}
        data-testid="hours-member"
      />
      {member && <MemberHours key={member} member={member} />}
    </Stack>
  );
}

function MemberHours({ member }: { member: string }) {
  const data = useMemberSchedule(member);
  if (!data.data) return null;
  return <HoursForm member={member} init={data.data} />;
}

function HoursForm({
  member,
  init,
}: {
  member: string;
  init: NonNullable<ReturnType<typeof useMemberSchedule>['data']>;
}) {
  const { t } = useTranslation('appointments');
  const actions = useAppointmentActions();
  const [weekly, setWeekly] = useState<MemberSchedule['weekly']>(init.schedule.weekly);
  const [exceptions, setExceptions] = useState<MemberSchedule['exceptions']>(init.schedule.exceptions);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const locations = init.locations.map((l) => ({ value: l.id, label: l.name }));
  const save = async () => {
    setMessage(null);
    try {
      await actions.saveSchedule(member, { weekly, exceptions });
      setMessage({ ok: true, text: t('hours.saved') });
    } catch (e) {
      setMessage({ ok: false, text: errorMessageOf(e, t) });
    }
  };
  return (
    <Stack gap="md">
      <Card withBorder>
        <Stack gap="xs">
          <Text fw={600}>{t('hours.weekly')}</Text>
          <Table.ScrollContainer minWidth={560}>
            <Table data-testid="hours-weekly">
              <Table.Tbody>
                {WEEKDAYS.map((day) => (
                  <Table.Tr key={day}>
                    <Table.Td w={120}>{t(`weekday.${day}`)}</Table.Td>
                    <Table.Td>
                      <Stack gap={4}>
                        {weekly
                          .map((r, i) => ({ r, i }))
                          .filter(({ r }) => r.weekday === day)
                          .map(({ r, i }) => (
                            <Group key={i} gap="xs" wrap="nowrap">
                              <TextInput
                                type="time"
                                size="xs"
                                value={hhmm(r.startMinute)}
                                onChange={(e) =>
                                  setWeekly(
                                    weekly.map((x, j) =>
                                      j === i ? { ...x, startMinute: minutesOf(e.currentTarget.value) } : x,
                                    ),
                                  )
                                }
                              />
                              <TextInput
                                type="time"
                                size="xs"
                                value={hhmm(r.endMinute)}
                                onChange={(e) =>
                                  setWeekly(
                                    weekly.map((x, j) =>
                                      j === i ? { ...x, endMinute: minutesOf(e.currentTarget.value) } : x,
                                    ),
                                  )
                                }
                              />
                              <Select
                                size="xs"
                                data={locations}
                                value={r.locationId}
                                clearable
                                onChange={(l) =>
                                  setWeekly(weekly.map((x, j) => (j === i ? { ...x, locationId: l } : x)))
                                }
                                w={160}
                              />
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={t('hours.remove')}
                                onClick={() => setWeekly(weekly.filter((_, j) => j !== i))}
                              >
                                ×
                              </ActionIcon>
                            </Group>
                          ))}
                      </Stack>
                    </Table.Td>
                    <Table.Td w={80}>
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        onClick={() =>
                          setWeekly([
                            ...weekly,
                            {
                              weekday: day,
                              startMinute: 540,
                              endMinute: 1020,
                              locationId: locations[0]?.value ?? null,
                            },
                          ])
                        }
                      >
                        {t('hours.add')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <Text fw={600}>{t('hours.exceptions')}</Text>
          {exceptions.map((e, i) => (
            <Group key={i} gap="xs">
              <TextInput
                type="date"
                size="xs"
                value={e.date}
                onChange={(ev) =>
                  setExceptions(
                    exceptions.map((x, j) => (j === i ? { ...x, date: ev.currentTarget.value } : x)),
                  )
                }
              />
              <Select
                size="xs"
                w={150}
                data={[
                  { value: 'off', label: t('hours.dayOff') },
                  { value: 'hours', label: t('hours.otherHours') },
                ]}
                value={e.startMinute === null ? 'off' : 'hours'}
                allowDeselect={false}
                onChange={(v) =>
                  setExceptions(
                    exceptions.map((x, j) =>
                      j === i
                        ? {
                            ...x,
                            startMinute: v === 'off' ? null : 540,
                            endMinute: v === 'off' ? null : 1020,
                          }
                        : x,
                    ),
                  )
                }
              />
              {e.startMinute !== null && (
                <>
                  <TextInput
                    type="time"
                    size="xs"
                    value={hhmm(e.startMinute)}
                    onChange={(ev) =>
                      setExceptions(
                        exceptions.map((x, j) =>
                          j === i ? { ...x, startMinute: minutesOf(ev.currentTarget.value) } : x,
                        ),
                      )
                    }
                  />
                  <TextInput
                    type="time"
                    size="xs"
                    value={hhmm(e.endMinute ?? 0)}
                    onChange={(ev) =>
                      setExceptions(
                        exceptions.map((x, j) =>
                          j === i ? { ...x, endMinute: minutesOf(ev.currentTarget.value) } : x,
                        ),
                      )
                    }
                  />
                </>
              )}
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={t('hours.remove')}
                onClick={() => setExceptions(exceptions.filter((_, j) => j !== i))}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          <Group>
            <Button
              size="xs"
              variant="subtle"
              onClick={() =>
                setExceptions([
                  ...exceptions,
                  {
                    date: new Date().toISOString().slice(0, 10),
                    startMinute: null,
                    endMinute: null,
                    locationId: null,
                  },
                ])
              }
            >
              {t('hours.addException')}
            </Button>
          </Group>
          {message && <Alert color={message.ok ? 'green' : 'red'}>{message.text}</Alert>}
          <Group>
            <Button onClick={() => void save()} data-testid="hours-save">
              {t('hours.save')}
            </Button>
          </Group>
        </Stack>
      </Card>
      <Unavailability member={member} />
    </Stack>
  );
}

function Unavailability({ member }: { member: string }) {
  const { t } = useTranslation('appointments');
  const list = useMemberUnavailability(member);
  const actions = useAppointmentActions();
  const when = useStudioDateTime();
  const tz = useAppointmentInit().data?.timeZone ?? 'Europe/Warsaw';
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = async () => {
    setError(null);
    try {
      await actions.addUnavailability(member, {
        startsAt: fromWall(new Date(from), tz),
        endsAt: fromWall(new Date(to), tz),
        reason,
      });
      setFrom('');
      setTo('');
      setReason('');
    } catch (e) {
      setError(errorMessageOf(e, t));
    }
  };
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Text fw={600}>{t('hours.unavailability')}</Text>
        {(list.data?.items ?? []).map((u) => (
          <Group key={u.id} gap="xs">
            <Text size="sm">
              {when(u.startsAt)} – {when(u.endsAt)} {u.reason && `· ${u.reason}`}
            </Text>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('hours.remove')}
              onClick={() => void actions.removeUnavailability(u.id)}
            >
              ×
            </ActionIcon>
          </Group>
        ))}
        <Group gap="xs" align="end" wrap="wrap">
          <TextInput
            type="datetime-local"
            size="xs"
            label={t('hours.from')}
            value={from}
            onChange={(e) => setFrom(e.currentTarget.value)}
          />
          <TextInput
            type="datetime-local"
            size="xs"
            label={t('hours.to')}
            value={to}
            onChange={(e) => setTo(e.currentTarget.value)}
          />
          <TextInput
            size="xs"
            label={t('hours.reason')}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
          />
          <Button size="xs" onClick={() => void add()} disabled={!from || !to}>
            {t('hours.addUnavailability')}
          </Button>
        </Group>
        {error && <Alert color="red">{error}</Alert>}
      </Stack>
    </Card>
  );
}
