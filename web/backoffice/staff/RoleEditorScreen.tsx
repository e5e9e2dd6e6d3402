import {
  Alert,
  Anchor,
  Badge,
  Card,
  Checkbox,
  Group,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { StudioIamRole } from '../../../shared/contracts/api/staff';
import {
  ABILITY_AREAS,
  ALL_ABILITIES,
  type Ability,
  type AbilityArea,
} from '../../../shared/policies/abilities';
import { useApiClient } from '../../lib/app-context';
import { FormErrorList } from '../../ui/FormErrorList';
import { SubmitButton } from '../../ui/SubmitButton';
import { useServerForm } from '../../ui/use-server-form';
import {
  STAFF_ERROR_OPTIONS,
  roleName,
  staffCalls,
  useCan,
  useInvalidateStaff,
  useRoleMapping,
  useRoles,
  useStudioUuid,
} from './staff.api';
import { StaffLoadError, StaffLoading } from './StaffStates';

const AREAS = Object.keys(ABILITY_AREAS) as AbilityArea[];
const abilitiesOf = (area: AbilityArea): Ability[] => ALL_ABILITIES.filter((a) => a.startsWith(`${area}.`));

/** `#/staff/roles/new` and `#/staff/roles/:roleId`: a role's name and its abilities, grouped per area. */
export function RoleEditorScreen() {
  const { t } = useTranslation('backoffice');
  const { roleId } = useParams();
  const roles = useRoles();
  const isNew = !roleId;

  let body;
  if (roles.error) body = <StaffLoadError error={roles.error} onRetry={() => void roles.refetch()} />;
  else if (!roles.data) body = <StaffLoading />;
  else {
    const role = roles.data.items.find((r) => r.uuid === roleId);
    body =
      isNew || role ? (
        <RoleForm key={role?.uuid ?? 'new'} role={role ?? null} />
      ) : (
        <Alert color="yellow" variant="light" data-testid="staff-role-not-found">
          {t('staff.editor.notFound')}
        </Alert>
      );
  }

  return (
    <Stack gap="lg" maw={1100}>
      <Anchor component={Link} to="/staff/roles" size="sm" data-testid="staff-role-back">
        ← {t('staff.editor.back')}
      </Anchor>
      {body}
    </Stack>
  );
}

function RoleForm({ role }: { role: StudioIamRole | null }) {
  const { t } = useTranslation('backoffice');
  const api = useApiClient();
  const studio = useStudioUuid();
  const navigate = useNavigate();
  const invalidate = useInvalidateStaff();
  const can = useCan();
  const readOnly = !can('staff.roles');
  const locked = Boolean(role?.isOwner);
  const [abilities, setAbilities] = useState<ReadonlySet<Ability>>(new Set(role ? role.abilities : []));
  const form = useServerForm({
    initialValues: { name: role ? roleName(t, role) : '' },
    submit: async ({ name }) => {
      const list = ALL_ABILITIES.filter((a) => abilities.has(a));
      if (!role) return staffCalls.createRole(api, studio, { name, abilities: list });
      // A default role keeps its translated name unless the name was actually changed.
      const renamed = name !== roleName(t, role);
      if (locked && !renamed) return role;
      return staffCalls.updateRole(api, studio, role.uuid, {
        ...(renamed ? { name } : {}),
        ...(locked ? {} : { abilities: list }),
      });
    },
    onSuccess: () => {
      void invalidate();
      if (!role) navigate('/staff/roles');
    },
    errorOptions: STAFF_ERROR_OPTIONS,
  });

  const toggle = (list: Ability[], on: boolean) =>
    setAbilities((previous) => {
      const next = new Set(previous);
      for (const ability of list) {
        if (on) next.add(ability);
        else next.delete(ability);
      }
      return next;
    });

  const title = !role
    ? t('staff.editor.titleNew')
    : readOnly
      ? t('staff.editor.titleView')
      : t('staff.editor.titleEdit');

  return (
    <form {...form.formProps} data-testid="staff-role-editor">
      <Stack gap="lg">
        <Group justify="space-between" align="center" gap="sm">
          <Title order={1} size="h2">
            {title}
          </Title>
          {role?.isOwner ? (
            <Badge color="grape" variant="light">
              {t('staff.roles.owner')}
            </Badge>
          ) : null}
        </Group>
        {readOnly ? (
          <Alert color="blue" variant="light">
            {t('staff.editor.readOnly')}
          </Alert>
        ) : null}
        <FormErrorList errors={form.formErrors} />
        <TextInput
          {...form.getInputProps('name')}
          label={t('staff.editor.name')}
          required
          readOnly={readOnly}
          maw={480}
          data-testid="staff-role-name"
        />
        <div>
          <Text fw={600}>{t('staff.editor.abilities')}</Text>
          <Text size="sm" c="dimmed">
            {locked ? t('staff.editor.ownerLocked') : t('staff.editor.abilitiesHint')}
          </Text>
        </div>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {AREAS.map((area) => {
            const list = abilitiesOf(area);
            const held = list.filter((a) => abilities.has(a)).length;
            const areaName = t(`staff.areas.${area}`);
            return (
              <Card key={area} withBorder radius="md" padding="md" data-testid={`staff-area-${area}`}>
                <Stack gap="xs">
                  <Checkbox
                    label={<Text fw={600}>{t('staff.editor.all', { area: areaName })}</Text>}
                    checked={held === list.length}
                    indeterminate={held > 0 && held < list.length}
                    disabled={readOnly || locked}
                    onChange={(event) => toggle(list, event.currentTarget.checked)}
                  />
                  <Stack gap={6} pl="lg">
                    {list.map((ability) => (
                      <Checkbox
                        key={ability}
                        value={ability}
                        label={t(`staff.abilities.${ability}`)}
                        checked={abilities.has(ability)}
                        disabled={readOnly || locked}
                        onChange={(event) => toggle([ability], event.currentTarget.checked)}
                        data-testid={`ability-${ability}`}
                      />
                    ))}
                  </Stack>
                </Stack>
              </Card>
            );
          })}
        </SimpleGrid>
        {!readOnly ? (
          <Group justify="flex-end">
            <SubmitButton state={form.buttonState} data-testid="staff-role-save">
              {role ? t('staff.editor.save') : t('staff.editor.create')}
            </SubmitButton>
          </Group>
        ) : null}
        {role ? <RoleHolders role={role} /> : null}
      </Stack>
    </form>
  );
}

/** GET studio-iam-role/{id}/mapping: who holds the role. */
function RoleHolders({ role }: { role: StudioIamRole }) {
  const { t } = useTranslation('backoffice');
  const mapping = useRoleMapping(role.uuid);
  return (
    <Card withBorder radius="md" padding="md" data-testid="staff-role-holders">
      <Stack gap="xs">
        <Text fw={600}>{t('staff.roles.showMembers')}</Text>
        {mapping.error ? (
          <StaffLoadError error={mapping.error} onRetry={() => void mapping.refetch()} />
        ) : !mapping.data ? (
          <StaffLoading />
        ) : mapping.data.items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('staff.roles.noMembers')}
          </Text>
        ) : (
          mapping.data.items.map((member) => (
            <Group key={member.uuid} gap="xs" wrap="nowrap">
              <Text size="sm" fw={500}>
                {member.firstName} {member.lastName}
              </Text>
              <Text size="sm" c="dimmed" truncate>
                {member.emailAddress}
              </Text>
            </Group>
          ))
        )}
      </Stack>
    </Card>
  );
}
