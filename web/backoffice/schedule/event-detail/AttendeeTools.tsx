import { Alert, Button, Checkbox, Group, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EVENT_MESSAGE_MAX, type EventEnrollments } from '../../../../shared/contracts/api/bookings';
import { BookingsApi } from '../../../../shared/contracts/http/bookings';
import { useApiClient } from '../../../lib/app-context';
import { toFormErrors } from '../../../lib/form-errors';
import { downloadFile } from '../../clients/clients.api';
import { useStudioUuid } from '../schedule.api';
import { BOOKING_ERROR_OPTIONS } from './event-bookings.api';

/**
 * Under a class's attendee list: download the list as a spreadsheet (`enrollments/export`) and
 * write to everyone on the class (`enrollments/send-notification`: e-mail and in-app notification).
 */
export function AttendeeTools({ eventId, data }: { eventId: string; data: EventEnrollments }) {
  const { t } = useTranslation('bookings-ui');
  const api = useApiClient();
  const studio = useStudioUuid();
  const [writing, setWriting] = useState(false);
  const [message, setMessage] = useState('');
  const [includeWaiting, setIncludeWaiting] = useState(false);
  const [busy, setBusy] = useState<'export' | 'send' | null>(null);
  const [feedback, setFeedback] = useState<{ color: string; text: string } | null>(null);
  // Translated when shown: the language may change while the form is open.
  const [messageMissing, setMessageMissing] = useState(false);
  const people = data.attendees.length + data.waitingList.length + data.cancelled.length;

  const exportList = async () => {
    setBusy('export');
    setFeedback(null);
    try {
      await downloadFile(api, `${studio}/schedule-event/${eventId}/enrollments/export`, {}, 'attendees.csv');
    } catch (error) {
      setFeedback({
        color: 'red',
        text: toFormErrors(error, t, BOOKING_ERROR_OPTIONS).form[0] ?? t('staff.failed'),
      });
    } finally {
      setBusy(null);
    }
  };

  const send = async () => {
    setBusy('send');
    setFeedback(null);
    setMessageMissing(false);
    try {
      const result = await api.call(BookingsApi.postScheduleEventEnrollmentsSendNotification, {
        params: { uuid: studio, scheduleEvent: eventId },
        body: { message, includeWaitingList: includeWaiting },
      });
      setFeedback({ color: 'teal', text: t('tools.sent', { count: result.notified }) });
      setMessage('');
      setWriting(false);
    } catch (error) {
      const errors = toFormErrors(error, t, BOOKING_ERROR_OPTIONS);
      if (errors.fields.message) setMessageMissing(true);
      else setFeedback({ color: 'red', text: errors.form[0] ?? t('staff.failed') });
    } finally {
      setBusy(null);
    }
  };

  const onClass = data.attendees.length + (includeWaiting ? data.waitingList.length : 0);
  return (
    <Stack gap="xs" data-testid="attendee-tools">
      <Group gap="xs">
        <Button
          size="compact-sm"
          variant="default"
          disabled={people === 0}
          loading={busy === 'export'}
          onClick={() => void exportList()}
          data-testid="attendees-export"
        >
          {t('tools.export')}
        </Button>
        {data.can.book && !writing && (
          <Button
            size="compact-sm"
            variant="default"
            disabled={data.attendees.length + data.waitingList.length === 0}
            onClick={() => setWriting(true)}
            data-testid="attendees-write"
          >
            {t('tools.write')}
          </Button>
        )}
      </Group>
      {writing && (
        <Stack gap={6} data-testid="attendees-message-form">
          <Textarea
            label={t('tools.messageLabel')}
            description={t('tools.messageHint')}
            value={message}
            onChange={(e) => {
              setMessage(e.currentTarget.value);
              setMessageMissing(false);
            }}
            maxLength={EVENT_MESSAGE_MAX}
            autosize
            minRows={3}
            error={messageMissing ? t('tools.messageRequired') : null}
            data-testid="attendees-message-text"
          />
          {data.waitingList.length > 0 && (
            <Checkbox
              size="xs"
              label={t('tools.includeWaiting', { count: data.waitingList.length })}
              checked={includeWaiting}
              onChange={(e) => setIncludeWaiting(e.currentTarget.checked)}
            />
          )}
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Text size="xs" c="dimmed">
              {t('tools.recipients', { count: onClass })}
            </Text>
            <Group gap="xs">
              <Button size="compact-sm" variant="subtle" onClick={() => setWriting(false)}>
                {t('tools.cancel')}
              </Button>
              <Button
                size="compact-sm"
                loading={busy === 'send'}
                onClick={() => void send()}
                data-testid="attendees-message-send"
              >
                {t('tools.send')}
              </Button>
            </Group>
          </Group>
        </Stack>
      )}
      {feedback && (
        <Alert
          color={feedback.color}
          withCloseButton
          onClose={() => setFeedback(null)}
          data-testid="attendee-tools-feedback"
        >
          {feedback.text}
        </Alert>
      )}
    </Stack>
  );
}
