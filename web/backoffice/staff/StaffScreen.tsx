import { Badge, Button, Card, Group, Paper, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import type { Member, StudioIamRole } from '../../../shared/contracts/api/staff';
import { ALL_ABILITIES } from '../../../shared/policies/abilities';
import { useApiClient } from '../../lib/app-context';
import { toFormErrors } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';
import { AddMemberDialog, ChangeRoleDialog, ConfirmDialog, RemoveMemberDialog } from './MemberDialogs';
import {
  STAFF_ERROR_OPTIONS,
  roleName,
  staffCalls,
  useCan,
  useInvalidateStaff,
  useMemberListInit,
  useMembers,
  usePhone,
  useRoles,
  useStudioUuid,
} from './staff.api';
import { StaffLoadError, StaffLoading } from './StaffStates';
import { ListEmpty, ListSearch, ListToolbar, LoadMoreButton, TabbedSection } from '../list-frame';

/** Spec §9: table search waits 600 ms after the last key. */
const SEARCH_DELAY_MS = 600;

/** The Staff section: members of staff, and the studio's roles. */
export function StaffScreen({ tab }: { tab: 'members' | 'roles' }) {
  const { t } = useTranslation('backoffice');
  const navigate = useNavigate();
  return (
    <TabbedSection
      title={t('staff.title')}
      tab={tab}
      tabs={[
        { value: 'members', label: t('staff.tabs.members'), testId: 'staff-tab-members' },
        { value: 'roles', label: t('staff.tabs.roles'), testId: 'staff-tab-roles' },
      ]}
      onChange={(value) => navigate(value === 'roles' ? '/staff/roles' : '/staff')}
    >
      {tab === 'members' ? <MembersPanel /> : <RolesPanel />}
    </TabbedSection>
  );
}

// ---------------------------------------------------------------------------------------------------
// Members

function MembersPanel() {
  const { t } = useTranslation('backoffice');
  const phone = usePhone();
  const init = useMemberListInit();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), init.data?.searchDelayMs ?? SEARCH_DELAY_MS);
  const [roleFilter, setRoleFilter] = useState<string | null>(null);
  const [locationFilter, setLocationFilter] = useState<string | null>(null);
  const members = useMembers({
    search: debounced,
    role: roleFilter ?? undefined,
    location: locationFilter ?? undefined,
  });
  const [adding, setAdding] = useState(false);
  const [changing, setChanging] = useState<Member | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);

  if (members.error) return <StaffLoadError error={members.error} onRetry={() => void members.refetch()} />;
  if (init.error) return <StaffLoadError error={init.error} onRetry={() => void init.refetch()} />;

  const items = members.data?.pages.flatMap((page) => page.items) ?? [];
  const abilities = init.data?.abilities;
  const actions =
    abilities && (abilities.changeRole || abilities.removeMember)
      ? { onChangeRole: setChanging, onRemove: setRemoving }
      : null;
  const locations = init.data?.locations ?? [];

  return (
    <Stack gap="md">
      <ListToolbar
        phone={phone}
        filters={
          <>
            <ListSearch
              phone={phone}
              label={t('staff.members.search')}
              value={search}
              onChange={setSearch}
              testId="staff-search"
            />
            <Select
              label={t('staff.members.roleFilter')}
              placeholder={t('staff.members.allRoles')}
              data={(init.data?.roles ?? []).map((role) => ({
                value: role.uuid,
                label: t('staff.members.withCount', { name: roleName(t, role), n: role.memberCount }),
              }))}
              value={roleFilter}
              onChange={setRoleFilter}
              clearable
              w={phone ? '100%' : 220}
              data-testid="staff-role-filter"
            />
            {locations.length > 0 ? (
              <Select
                label={t('staff.members.locationFilter')}
                placeholder={t('staff.members.allLocations')}
                data={locations.map((location) => ({
                  value: location.id,
                  label: t('staff.members.withCount', { name: location.name, n: location.memberCount }),
                }))}
                value={locationFilter}
                onChange={setLocationFilter}
                clearable
                w={phone ? '100%' : 220}
                data-testid="staff-location-filter"
              />
            ) : null}
          </>
        }
        actions={
          abilities?.addMember ? (
            <Button onClick={() => setAdding(true)} fullWidth={phone} data-testid="staff-add">
              {t('staff.members.add')}
            </Button>
          ) : null
        }
      />

      {init.data ? (
        <Text size="sm" c="dimmed" data-testid="staff-total">
          {t('staff.members.total', { count: init.data.total })}
        </Text>
      ) : null}

      {members.isPending ? (
        <StaffLoading />
      ) : items.length === 0 ? (
        <ListEmpty text={t('staff.members.empty')} testId="staff-empty" />
      ) : phone ? (
        <Stack gap="sm">
          {items.map((member) => (
            <MemberCard key={member.uuid} member={member} actions={actions} />
          ))}
        </Stack>
      ) : (
        <MemberTable members={items} actions={actions} />
      )}

      <LoadMoreButton
        hasMore={members.hasNextPage}
        loading={members.isFetchingNextPage}
        onLoad={() => void members.fetchNextPage()}
        label={t('staff.members.loadMore')}
      />

      <AddMemberDialog opened={adding} onClose={() => setAdding(false)} />
      <ChangeRoleDialog member={changing} onClose={() => setChanging(null)} />
      <RemoveMemberDialog member={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

type MemberActions = { onChangeRole(member: Member): void; onRemove(member: Member): void } | null;

function MemberBadges({ member }: { member: Member }) {
  const { t } = useTranslation('backoffice');
  const me = useBackoffice().member.userId;
  return (
    <>
      {member.uuid === me ? (
        <Badge size="xs" variant="outline">
          {t('staff.members.you')}
        </Badge>
      ) : null}
      {member.isClient ? (
        <Badge size="xs" variant="light" color="gray">
          {t('staff.members.alsoClient')}
        </Badge>
      ) : null}
    </>
  );
}

function RoleBadge({ member }: { member: Member }) {
  const { t } = useTranslation('backoffice');
  return (
    <Badge
      variant="light"
      color={member.role?.isOwner ? 'grape' : member.role ? 'studio' : 'gray'}
      style={{ textTransform: 'none', flexShrink: 0 }}
      maw={200}
      data-testid="staff-member-role"
    >
      {roleName(t, member.role)}
    </Badge>
  );
}

function MemberButtons({ member, actions }: { member: Member; actions: MemberActions }) {
  const { t } = useTranslation('backoffice');
  if (!actions) return null;
  return (
    <Group gap={4} wrap="nowrap">
      <Button
        size="compact-sm"
        variant="subtle"
        onClick={() => actions.onChangeRole(member)}
        data-testid="staff-change-role"
      >
        {t('staff.members.changeRole')}
      </Button>
      <Button
        size="compact-sm"
        variant="subtle"
        color="red"
        onClick={() => actions.onRemove(member)}
        data-testid="staff-remove-member"
      >
        {t('staff.members.remove')}
      </Button>
    </Group>
  );
}

function MemberTable({ members, actions }: { members: Member[]; actions: MemberActions }) {
  const { t } = useTranslation('backoffice');
  return (
    <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover data-testid="staff-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('staff.members.name')}</Table.Th>
            <Table.Th>{t('staff.members.email')}</Table.Th>
            <Table.Th>{t('staff.members.role')}</Table.Th>
            {actions ? <Table.Th style={{ width: 1 }}>{t('staff.members.actions')}</Table.Th> : null}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {members.map((member) => (
            <Table.Tr key={member.uuid} data-testid="staff-member" data-email={member.emailAddress}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Text fw={500} size="sm">
                    {member.firstName} {member.lastName}
                  </Text>
                  <MemberBadges member={member} />
                </Group>
              </Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed">
                  {member.emailAddress}
                </Text>
              </Table.Td>
              <Table.Td>
                <RoleBadge member={member} />
              </Table.Td>
              {actions ? (
                <Table.Td>
                  <MemberButtons member={member} actions={actions} />
                </Table.Td>
              ) : null}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Paper>
  );
}

function MemberCard({ member, actions }: { member: Member; actions: MemberActions }) {
  return (
    <Card withBorder radius="md" padding="sm" data-testid="staff-member" data-email={member.emailAddress}>
      <Stack gap={8}>
        <div style={{ minWidth: 0 }}>
          <Text fw={600}>
            {member.firstName} {member.lastName}
          </Text>
          <Text size="sm" c="dimmed" truncate>
            {member.emailAddress}
          </Text>
        </div>
        <Group justify="space-between" gap="xs">
          <Group gap={6}>
            <RoleBadge member={member} />
            <MemberBadges member={member} />
          </Group>
          <MemberButtons member={member} actions={actions} />
        </Group>
      </Stack>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------------
// Roles

function RolesPanel() {
  const { t } = useTranslation('backoffice');
  const can = useCan();
  const phone = usePhone();
  const navigate = useNavigate();
  const roles = useRoles();
  const [deleting, setDeleting] = useState<StudioIamRole | null>(null);
  const api = useApiClient();
  const studio = useStudioUuid();
  const invalidate = useInvalidateStaff();

  if (roles.error) return <StaffLoadError error={roles.error} onRetry={() => void roles.refetch()} />;
  if (!roles.data) return <StaffLoading />;

  const mayEdit = can('staff.roles');
  return (
    <Stack gap="md">
      {mayEdit ? (
        <Group justify="flex-end">
          <Button onClick={() => navigate('/staff/roles/new')} fullWidth={phone} data-testid="staff-role-new">
            {t('staff.roles.new')}
          </Button>
        </Group>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {roles.data.items.map((role) => (
          <RoleCard
            key={role.uuid}
            role={role}
            mayEdit={mayEdit}
            onOpen={() => navigate(`/staff/roles/${role.uuid}`)}
            onDelete={() => setDeleting(role)}
          />
        ))}
      </SimpleGrid>
      <ConfirmDialog
        opened={deleting !== null}
        title={deleting ? t('staff.roles.deleteTitle', { name: roleName(t, deleting) }) : ''}
        text={t('staff.roles.deleteText')}
        submitLabel={t('staff.roles.deleteSubmit')}
        onConfirm={async () => {
          await staffCalls.deleteRole(api, studio, deleting!.uuid);
          await invalidate();
        }}
        onClose={() => setDeleting(null)}
        testId="staff-role-delete"
      />
    </Stack>
  );
}

function RoleCard({
  role,
  mayEdit,
  onOpen,
  onDelete,
}: {
  role: StudioIamRole;
  mayEdit: boolean;
  onOpen(): void;
  onDelete(): void;
}) {
  const { t } = useTranslation('backoffice');
  const api = useApiClient();
  const studio = useStudioUuid();
  const navigate = useNavigate();
  const invalidate = useInvalidateStaff();
  const [replicating, setReplicating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const name = roleName(t, role);
  const areas = new Set(role.abilities.map((a) => a.split('.')[0]));

  const replicate = async () => {
    setReplicating(true);
    setError(null);
    try {
      const copy = await staffCalls.replicateRole(
        api,
        studio,
        role.uuid,
        t('staff.roles.copyName', { name }).slice(0, 100),
      );
      await invalidate();
      navigate(`/staff/roles/${copy.uuid}`);
    } catch (err) {
      setError(toFormErrors(err, t, STAFF_ERROR_OPTIONS).form.join(' '));
    } finally {
      setReplicating(false);
    }
  };

  return (
    <Card withBorder radius="md" padding="lg" data-testid="staff-role" data-role-name={name}>
      <Stack gap="xs" h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Text fw={650} size="lg" lineClamp={2}>
            {name}
          </Text>
          {role.isOwner ? (
            <Badge color="grape" variant="light" style={{ flexShrink: 0 }}>
              {t('staff.roles.owner')}
            </Badge>
          ) : role.key ? (
            <Badge color="gray" variant="light" style={{ flexShrink: 0 }}>
              {t('staff.roles.default')}
            </Badge>
          ) : null}
        </Group>
        <Text size="sm" c="dimmed">
          {t('staff.roles.members', { count: role.memberCount })} ·{' '}
          {t('staff.roles.abilitiesCount', { count: role.abilities.length, total: ALL_ABILITIES.length })}
        </Text>
        <Group gap={4}>
          {[...areas].map((area) => (
            <Badge key={area} size="xs" variant="dot" color="studio" style={{ textTransform: 'none' }}>
              {t(`staff.areas.${area}`)}
            </Badge>
          ))}
        </Group>
        {role.isOwner ? (
          <Text size="xs" c="dimmed">
            {t('staff.roles.ownerNote')}
          </Text>
        ) : null}
        {error ? (
          <Text size="sm" c="red" role="alert">
            {error}
          </Text>
        ) : null}
        <Group gap="xs" mt="auto" pt="xs">
          <Button size="compact-sm" variant="light" onClick={onOpen} data-testid="staff-role-open">
            {mayEdit ? t('staff.roles.edit') : t('staff.roles.view')}
          </Button>
          {mayEdit ? (
            <Button
              size="compact-sm"
              variant="subtle"
              onClick={() => void replicate()}
              loading={replicating}
              data-testid="staff-role-replicate"
            >
              {t('staff.roles.replicate')}
            </Button>
          ) : null}
          {mayEdit && !role.isOwner ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={onDelete}
              data-testid="staff-role-delete-open"
            >
              {t('staff.roles.delete')}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Card>
  );
}
