import { useMediaQuery } from '@mantine/hooks';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import {
  MemberAddInitSchema,
  MemberIamInitSchema,
  MemberListSchema,
  MemberSchema,
  StudioIamRoleListSchema,
  StudioIamRoleSchema,
  type AddMemberInput,
  type CreateStudioIamRoleInput,
  type MemberRole,
  type UpdateStudioIamRoleInput,
} from '../../../shared/contracts/api/staff';
import type { Ability } from '../../../shared/policies/abilities';
import type { ApiClient } from '../../lib/api-client';
import { useApiClient } from '../../lib/app-context';
import type { FormErrorOptions } from '../../lib/form-errors';
import { useBackoffice } from '../backoffice.api';

/** Staff and roles calls (spec §7 "member…", "studio-iam-role…") and their react-query keys. */
export const staffKeys = {
  all: (studio: string) => ['staff', studio] as const,
  roles: (studio: string) => ['staff', studio, 'roles'] as const,
  members: (studio: string, filters: { search?: string; role?: string }) =>
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
    queryFn: ({ signal }) =>
      api.get(`${studio}/studio-iam-role/all`, { schema: StudioIamRoleListSchema, signal }),
  });
}

export function useMembers(filters: { search?: string; role?: string }) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useInfiniteQuery({
    queryKey: staffKeys.members(studio, filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      api.get(`${studio}/member/collection`, {
        schema: MemberListSchema,
        signal,
        query: { search: filters.search || undefined, role: filters.role || undefined, cursor: pageParam },
      }),
    getNextPageParam: (last) => last.next ?? undefined,
  });
}

export function useMemberAddInit(enabled: boolean) {
  const api = useApiClient();
  const studio = useStudioUuid();
  return useQuery({
    queryKey: staffKeys.addInit(studio),
    queryFn: ({ signal }) => api.get(`${studio}/member/add/init`, { schema: MemberAddInitSchema, signal }),
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
      api.get(`${studio}/member/${user}/iam/init`, { schema: MemberIamInitSchema, signal }),
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
      api.get(`${studio}/studio-iam-role/${role}/mapping`, { schema: MemberListSchema, signal }),
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
    api.put(`${studio}/studio-iam-role`, input, { schema: StudioIamRoleSchema }),
  updateRole: (api: ApiClient, studio: string, role: string, input: UpdateStudioIamRoleInput) =>
    api.patch(`${studio}/studio-iam-role/${role}`, input, { schema: StudioIamRoleSchema }),
  deleteRole: (api: ApiClient, studio: string, role: string) =>
    api.delete<void>(`${studio}/studio-iam-role/${role}`),
  replicateRole: (api: ApiClient, studio: string, role: string, name: string) =>
    api.post(`${studio}/studio-iam-role/${role}/replicate`, { name }, { schema: StudioIamRoleSchema }),
  addMember: (api: ApiClient, studio: string, input: AddMemberInput) =>
    api.post(`${studio}/member`, input, { schema: MemberSchema }),
  setMemberRole: (api: ApiClient, studio: string, user: string, studioIamRole: string) =>
    api.patch(`${studio}/member/${user}/iam`, { studioIamRole }, { schema: MemberSchema }),
  removeMember: (api: ApiClient, studio: string, user: string) =>
    api.delete<void>(`${studio}/member/${user}`),
};
