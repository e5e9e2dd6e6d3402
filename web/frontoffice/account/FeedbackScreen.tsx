import { Alert, Paper, Rating, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StudioAdminApi } from '../../../shared/contracts/http/studio-admin';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useStudioUuid } from '../studio';

/**
 * `feedback` (My account): the client writes to the studio, with an optional 1–5 rating (front
 * office `POST feedback`); staff read it in the back office's inbox. After sending, the form is
 * emptied and a thank-you stays until the next message.
 */
export function FeedbackScreen() {
  const { t } = useTranslation('studio-admin');
  const api = useApiClient();
  const studio = useStudioUuid();
  const [sent, setSent] = useState(false);
  const form = useServerForm({
    initialValues: { message: '', rating: '' },
    submit: (v) =>
      api.call(StudioAdminApi.postFeedback, {
        params: { uuid: studio },
        body: { message: v.message, rating: v.rating ? Number(v.rating) : null },
      }),
    onSuccess: () => {
      setSent(true);
      form.setValue('message', '');
      form.setValue('rating', '');
    },
  });
  const message = form.getInputProps('message');
  return (
    <Paper withBorder p={{ base: 'md', sm: 'xl' }} radius="md" data-testid="feedback-screen">
      <form {...form.formProps} data-testid="feedback-form">
        <Stack gap="md" maw={560}>
          <div>
            <Title order={2} size="h3">
              {t('feedback.title')}
            </Title>
            <Text size="sm" c="dimmed" mt={4}>
              {t('feedback.intro')}
            </Text>
          </div>
          {sent && (
            <Alert
              color="teal"
              variant="light"
              data-testid="feedback-sent"
              withCloseButton
              onClose={() => setSent(false)}
            >
              {t('feedback.sent')}
            </Alert>
          )}
          <FormErrorList errors={form.formErrors} />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="feedback-rating-label">
              {t('feedback.rating')}
            </Text>
            <Rating
              value={Number(form.values.rating) || 0}
              onChange={(value) => form.setValue('rating', value ? String(value) : '')}
              aria-labelledby="feedback-rating-label"
              size="lg"
              data-testid="feedback-rating"
            />
            {form.fieldErrors.rating && (
              <Text size="xs" c="red">
                {form.fieldErrors.rating}
              </Text>
            )}
          </Stack>
          <Textarea
            name="message"
            label={t('feedback.message')}
            placeholder={t('feedback.placeholder')}
            autosize
            minRows={4}
            maxLength={2000}
            value={message.value}
            onChange={(event) => {
              setSent(false);
              form.setValue('message', event.currentTarget.value);
            }}
            error={message.error}
            data-testid="feedback-message"
          />
          <SubmitButton state={form.buttonState} data-testid="feedback-send">
            {t('feedback.send')}
          </SubmitButton>
        </Stack>
      </form>
    </Paper>
  );
}
