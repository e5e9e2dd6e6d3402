import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AssignableRole, Member } from '../../../shared/contracts/api/staff';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import { useSubmitButton } from '../../ui/use-submit-button';
import { useBackoffice } from '../backoffice.api';
import {
  STAFF_ERROR_OPTIONS,
  roleName,
  staffCalls,
  useInvalidateStaff,
  useMemberAddInit,
  useMemberIamInit,
  usePhone,
  useStudioUuid,
} from './staff.api';
import { StaffLoadError, StaffLoading } from './StaffStates';

const fullName = (m: Pick<Member, 'firstName' | 'lastName' | 'emailAddress'>) =>
  `${m.firstName} ${m.lastName}`.trim() || m.emailAddress;

/** Role options for a picker: roles the signed-in member may not give are shown, but disabled. */
function useRoleOptions(roles: AssignableRole[]) {
  const { t } = useTranslation('backoffice');
  return roles.map((role) => ({
    value: role.uuid,
    label: role.assignable ? roleName(t, role) : `${roleName(t, role)} (${t('staff.add.notAssignable')})`,
    disabled: !role.assignable,
  }));
}

// ---------------------------------------------------------------------------------------------------

export function AddMemberDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const { t } = useTranslation('backoffice');
  const phone = usePhone();
  const init = useMemberAddInit(opened);
  return (
    <Modal opened={opened} onClose={onClose} title={t('staff.add.title')} fullScreen={phone} size="lg">
      {init.data ? (
        <AddMemberForm roles={init.data.roles} onDone={onClose} />
      ) : init.error ? (
        <StaffLoadError error={init.error} onRetry={() => void init.refetch()} />
      ) : (
        <StaffLoading />
      )}
    </Modal>
  );
}

function AddMemberForm({ roles, onDone }: { roles: AssignableRole[]; onDone(): void }) {
  const { t } = useTranslation('backoffice');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateStaff();
  const options = useRoleOptions(roles);
  const preselected =
    roles.find((r) => r.key === 'front_desk' && r.assignable) ??
    roles.find((r) => r.assignable && !r.isOwner);
  const form = useServerForm({
    initialValues: {
      emailAddress: '',
      firstName: '',
      lastName: '',
      phone: '',
      studioIamRole: preselected?.uuid ?? '',
    },
    submit: ({ phone, ...values }) =>
      staffCalls.addMember(api, studio, { ...values, ...(phone ? { phone } : {}) }),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
    errorOptions: STAFF_ERROR_OPTIONS,
  });
  return (
    <form {...form.formProps} data-testid="staff-add-form">
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('staff.add.intro')}
        </Text>
        <FormErrorList errors={form.formErrors} />
        <TextInput
          {...form.getInputProps('emailAddress')}
          type="email"
          label={t('staff.add.emailAddress')}
          autoComplete="off"
          required
          data-autofocus
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput {...form.getInputProps('firstName')} label={t('staff.add.firstName')} required />
          <TextInput {...form.getInputProps('lastName')} label={t('staff.add.lastName')} required />
        </SimpleGrid>
        <TextInput {...form.getInputProps('phone')} type="tel" label={t('staff.add.phone')} />
        <Select
          name="studioIamRole"
          label={t('staff.add.role')}
          placeholder={t('staff.add.rolePlaceholder')}
          data={options}
          value={form.values.studioIamRole || null}
          onChange={(value) => form.setValue('studioIamRole', value ?? '')}
          error={form.fieldErrors.studioIamRole}
          allowDeselect={false}
          required
          comboboxProps={{ withinPortal: true }}
          data-testid="staff-add-role"
        />
        <Group justify="flex-end">
          <SubmitButton state={form.buttonState} data-testid="staff-add-submit">
            {t('staff.add.submit')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------------

export function ChangeRoleDialog({ member, onClose }: { member: Member | null; onClose(): void }) {
  const { t } = useTranslation('backoffice');
  const phone = usePhone();
  const init = useMemberIamInit(member?.uuid ?? null);
  return (
    <Modal
      opened={member !== null}
      onClose={onClose}
      title={member ? t('staff.changeRole.title', { name: fullName(member) }) : ''}
      fullScreen={phone}
    >
      {init.data && member && init.data.member.uuid === member.uuid ? (
        <ChangeRoleForm
          memberUuid={member.uuid}
          currentRole={init.data.member.role?.uuid ?? ''}
          roles={init.data.roles}
          canChange={init.data.canChange}
          onDone={onClose}
        />
      ) : init.error ? (
        <StaffLoadError error={init.error} onRetry={() => void init.refetch()} />
      ) : (
        <StaffLoading />
      )}
    </Modal>
  );
}

function ChangeRoleForm({
  memberUuid,
  currentRole,
  roles,
  canChange,
  onDone,
}: {
  memberUuid: string;
  currentRole: string;
  roles: AssignableRole[];
  canChange: boolean;
  onDone(): void;
}) {
  const { t } = useTranslation('backoffice');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateStaff();
  const options = useRoleOptions(roles);
  const form = useServerForm({
    initialValues: { studioIamRole: currentRole },
    submit: (values) => staffCalls.setMemberRole(api, studio, memberUuid, values.studioIamRole),
    onSuccess: () => {
      void invalidate();
      onDone();
    },
    errorOptions: STAFF_ERROR_OPTIONS,
  });
  const me = useBackoffice().member.userId;
  if (!canChange) {
    return (
      <Stack gap="md">
        <Alert color="yellow" variant="light" data-testid="staff-role-locked">
          {me === memberUuid ? t('staff.changeRole.ownRole') : t('staff.changeRole.notAllowed')}
        </Alert>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            {t('common:actions.goBack')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <form {...form.formProps} data-testid="staff-role-form">
      <Stack gap="md">
        <FormErrorList errors={form.formErrors} />
        <Select
          name="studioIamRole"
          label={t('staff.changeRole.role')}
          data={options}
          value={form.values.studioIamRole || null}
          onChange={(value) => form.setValue('studioIamRole', value ?? '')}
          error={form.fieldErrors.studioIamRole}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
          data-testid="staff-role-select"
        />
        <Group justify="flex-end">
          <SubmitButton state={form.buttonState} data-testid="staff-role-submit">
            {t('staff.changeRole.submit')}
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------------

/** A confirmation whose button runs one call; failures are worded by spec §8 (403 → no permission). */
export function ConfirmDialog({
  opened,
  title,
  text,
  submitLabel,
  onConfirm,
  onClose,
  testId,
}: {
  opened: boolean;
  title: string;
  text: string;
  submitLabel: string;
  onConfirm(): Promise<unknown>;
  onClose(): void;
  testId: string;
}) {
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title={title} fullScreen={phone}>
      {opened ? (
        <ConfirmBody
          text={text}
          submitLabel={submitLabel}
          onConfirm={onConfirm}
          onClose={onClose}
          testId={testId}
        />
      ) : null}
    </Modal>
  );
}

function ConfirmBody({
  text,
  submitLabel,
  onConfirm,
  onClose,
  testId,
}: {
  text: string;
  submitLabel: string;
  onConfirm(): Promise<unknown>;
  onClose(): void;
  testId: string;
}) {
  const { t } = useTranslation('backoffice');
  const button = useSubmitButton();
  // The failure itself is kept and worded at render, so switching the language rewords it.
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  const errors = failure ? toFormErrors(failure.error, t, STAFF_ERROR_OPTIONS).form : [];
  const confirm = () =>
    void button
      .run(() => {
        setFailure(null);
        return onConfirm();
      })
      .then((outcome) => {
        if (!outcome.accepted) return;
        if (outcome.ok) onClose();
        else setFailure({ error: outcome.error });
      });
  return (
    <Stack gap="md" data-testid={testId}>
      <Text size="sm">{text}</Text>
      <FormErrorList errors={errors} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t('staff.cancel')}
        </Button>
        <SubmitButton
          type="button"
          color="red"
          state={button.state}
          onClick={confirm}
          data-testid={`${testId}-submit`}
        >
          {submitLabel}
        </SubmitButton>
      </Group>
    </Stack>
  );
}

export function RemoveMemberDialog({ member, onClose }: { member: Member | null; onClose(): void }) {
  const { t } = useTranslation('backoffice');
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateStaff();
  return (
    <ConfirmDialog
      opened={member !== null}
      title={member ? t('staff.remove.title', { name: fullName(member) }) : ''}
      text={t('staff.remove.text')}
      submitLabel={t('staff.remove.submit')}
      onConfirm={async () => {
        await staffCalls.removeMember(api, studio, member!.uuid);
        await invalidate();
      }}
      onClose={onClose}
      testId="staff-remove"
    />
  );
}
