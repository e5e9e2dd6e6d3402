import { useMediaQuery } from '@mantine/hooks';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import type {
  AddMemberInput,
  CreateStudioIamRoleInput,
  MemberRole,
  UpdateStudioIamRoleInput,
} from '../../../shared/contracts/api/staff';
import { StaffApi } from '../../../shared/contracts/http/staff';
import type { Ability } from '../../../shared/policies/abilities';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';

/** Staff and roles calls (spec §7 "member…", "studio-iam-role…") and their react-query keys. */
export const staffKeys = {
  all: (studio: string) => ['staff', studio] as const,
  roles: (studio: string) => ['staff', studio, 'roles'] as const,
  listInit: (studio: string) => ['staff', studio, 'list-init'] as const,
  members: (studio: string, filters: { search?: string; role?: string; location?: string }) =>
    ['staff', studio, 'members', filters] as const,
  addInit: (studio: string) => ['staff', studio, 'add-init'] as const,
  iamInit: (studio: string, user: string) => ['staff', studio, 'iam-init', user] as const,
  mapping: (studio: string, role: string) => ['staff', studio, 'mapping', role] as const,
};

export function useStudioUuid(): string {
  return useBackoffice().studio.uuid;
}

/** Whether the signed-in member's role holds an ability (the server checks again on every call). */
export function useCan(): (ability: Ability) => boolean {
  const { member } = useBackoffice();
  return (ability) => member.abilities.includes(ability);
}

/** Phones (below the spec's "small" width): cards and full-screen dialogs instead of tables. */
export function usePhone(): boolean {
  return useMediaQuery('(max-width: 47.99em)', false, { getInitialValueInEffect: false });
}

/** A role's name as the studio reads it: its own name, else its default key's label. */
export function roleName(t: TFunction, role: Pick<MemberRole, 'key' | 'name'> | null): string {
  if (!role) return t('staff.members.noRole');
  return role.name ?? t(`staff.roleKeys.${role.key ?? 'custom'}`);
}

/** The server's staff refusals, worded for forms (spec §8 wording for 401/403/405 stays the default). */
export const STAFF_ERROR_OPTIONS: FormErrorOptions = {
  messagesByKey: {
    'staff.lastOwner': 'backoffice:staff.errors.lastOwner',
    'staff.roleInUse': 'backoffice:staff.errors.roleInUse',
    'staff.ownerRoleLocked': 'backoffice:staff.errors.ownerRoleLocked',
    'staff.alreadyMember': 'backoffice:staff.errors.alreadyMember',
  },
};

export function useRoles() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: staffKeys.roles(studio),
    queryFn: ({ signal }) => api.call(StaffApi.roles, { params: { uuid: studio }, query: {}, signal }),
  });
}

/** GET member-list/init: the list screen's role and location filters (with counts) and abilities. */
export function useMemberListInit() {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: staffKeys.listInit(studio),
    queryFn: ({ signal }) =>
      api.call(StaffApi.memberListInit, { params: { uuid: studio }, query: {}, signal }),
  });
}

export function useMembers(filters: { search?: string; role?: string; location?: string }) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useInfiniteQuery({
    queryKey: staffKeys.members(studio, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.call(StaffApi.members, {
        params: { uuid: studio },
        signal,
        query: {
          search: filters.search || undefined,
          role: filters.role || undefined,
          location: filters.location || undefined,
          cursor: pageParam,
        },
      }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export function useMemberAddInit(enabled: boolean) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: staffKeys.addInit(studio),
    queryFn: ({ signal }) =>
      api.call(StaffApi.memberAddInit, { params: { uuid: studio }, query: {}, signal }),
    enabled,
    staleTime: 0,
  });
}

export function useMemberIamInit(user: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: staffKeys.iamInit(studio, user ?? ''),
    queryFn: ({ signal }) =>
      api.call(StaffApi.memberIamInit, { params: { uuid: studio, user: user ?? '' }, query: {}, signal }),
    enabled: Boolean(user),
    staleTime: 0,
  });
}

export function useRoleMapping(role: string | null) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: staffKeys.mapping(studio, role ?? ''),
    queryFn: ({ signal }) =>
      api.call(StaffApi.roleMembers, {
        params: { uuid: studio, studioIamRole: role ?? '' },
        query: {},
        signal,
      }),
    enabled: Boolean(role),
  });
}

/** Everything staff-related is refetched after any change (lists are short). */
export function useInvalidateStaff(): () => Promise<void> {
  const queryClient = useQueryClient();
  const studio = useStudioUuid();
  return () => queryClient.invalidateQueries({ queryKey: staffKeys.all(studio) });
}

export const staffCalls = {
  createRole: (api: ApiClient, studio: string, input: CreateStudioIamRoleInput) =>
    api.call(StaffApi.createRole, { params: { uuid: studio }, body: input }),
  updateRole: (api: ApiClient, studio: string, role: string, input: UpdateStudioIamRoleInput) =>
    api.call(StaffApi.updateRole, { params: { uuid: studio, studioIamRole: role }, body: input }),
  deleteRole: (api: ApiClient, studio: string, role: string) =>
    api.call(StaffApi.deleteRole, { params: { uuid: studio, studioIamRole: role } }),
  replicateRole: (api: ApiClient, studio: string, role: string, name: string) =>
    api.call(StaffApi.replicateRole, { params: { uuid: studio, studioIamRole: role }, body: { name } }),
  addMember: (api: ApiClient, studio: string, input: AddMemberInput) =>
    api.call(StaffApi.addMember, { params: { uuid: studio }, body: input }),
  setMemberRole: (api: ApiClient, studio: string, user: string, studioIamRole: string) =>
    api.call(StaffApi.setMemberRole, { params: { uuid: studio, user }, body: { studioIamRole } }),
  removeMember: (api: ApiClient, studio: string, user: string) =>
    api.call(StaffApi.removeMember, { params: { uuid: studio, user } }),
};
