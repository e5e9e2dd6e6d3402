import { z } from 'zod';
import {
  AccountPatchSchema,
  AccountSchema,
  AccountSettingsInputSchema,
  AccountSettingsSchema,
  AgreementQuerySchema,
  AvatarQuerySchema,
  AvatarUploadInputSchema,
  ClientIdentityCollectionSchema,
  ClientIdentityCreateInputSchema,
  ClientIdentityViewSchema,
  ClientMessageInputSchema,
  ClientProfileSchema,
  ClientSignupInputSchema,
  ClientSignupResultSchema,
  FindMyAccountsSchema,
  InboxQuerySchema,
  LinkConnectInputSchema,
  LinkedAccountSchema,
  LinkInitSchema,
  LinkPatchInputSchema,
  MyIdentitySchema,
  NotificationsReadSchema,
  ProfileQuerySchema,
  ProfileUpdateInputSchema,
  QrPayloadSchema,
  SecurityInputSchema,
  SendMessageInputSchema,
  StudioAgreementCollectionSchema,
  UserMessageListSchema,
  UserMessageViewSchema,
  UserNotificationListSchema,
  UserNotificationViewSchema,
} from '../api/client-accounts';
import { contractGroup } from './define';
import { StudioParams, studioParams } from './params';

const UserParams = studioParams('user');
const IdentityParams = studioParams('clientIdentity');
const LinkParams = studioParams('userAccountLinkRelation');
const MessageParams = z.object({ uuid: z.string(), userMessageGuid: z.uuid() });
const NotificationParams = z.object({ uuid: z.string(), userNotificationGuid: z.uuid() });

/**
 * Client accounts (cloud/src/modules/client-accounts/README.md): agreements and sign-up, the
 * client's profile, avatar, password and settings, their identity (QR code and cards), linked
 * accounts, messages and notifications; and the back office's client identities.
 */
export const ClientAccountsApi = contractGroup('clientAccounts', {
  /** The studio's current agreements, for the sign-up form (public: the visitor has no account yet). */
  agreements: {
    method: 'get',
    path: '/v4/:uuid/studio-agreement/collection',
    access: 'public',
    params: StudioParams,
    query: AgreementQuerySchema,
    response: StudioAgreementCollectionSchema,
  },
  /** A client signs up at the studio and is signed in. */
  signup: {
    method: 'post',
    path: '/v4/:uuid/signup',
    access: 'public',
    params: StudioParams,
    body: ClientSignupInputSchema,
    status: 201,
    response: ClientSignupResultSchema,
  },
  /** My profile, or (`?user=`) that of an account I may act for (a linked child) that is a client here. */
  profile: {
    method: 'get',
    path: '/v4/:uuid/profile',
    access: 'client',
    params: StudioParams,
    query: ProfileQuerySchema,
    response: ClientProfileSchema,
  },
  updateProfile: {
    method: 'post',
    path: '/v4/:uuid/profile',
    access: 'client',
    params: StudioParams,
    body: ProfileUpdateInputSchema,
    response: ClientProfileSchema,
  },
  uploadAvatar: {
    method: 'post',
    path: '/v4/:uuid/user/avatar',
    access: 'client',
    params: StudioParams,
    body: AvatarUploadInputSchema,
    response: ClientProfileSchema,
  },
  removeAvatar: {
    method: 'delete',
    path: '/v4/:uuid/user/avatar',
    access: 'client',
    params: StudioParams,
    status: 204,
    responseKind: 'empty',
  },
  /** The avatar image (the person, someone who may act for them, or the studio's staff). */
  avatar: {
    method: 'get',
    path: '/v4/:uuid/user/:user/avatar',
    access: 'studio',
    params: UserParams,
    query: AvatarQuerySchema,
    responseKind: 'file',
  },
  /** Password change: the current password again; every other session of the person ends (204). */
  changePassword: {
    method: 'post',
    path: '/v4/:uuid/security',
    access: 'client',
    params: StudioParams,
    body: SecurityInputSchema,
    status: 204,
    responseKind: 'empty',
  },
  settings: {
    method: 'get',
    path: '/v4/:uuid/settings',
    access: 'client',
    params: StudioParams,
    response: AccountSettingsSchema,
  },
  saveSettings: {
    method: 'post',
    path: '/v4/:uuid/settings',
    access: 'client',
    params: StudioParams,
    body: AccountSettingsInputSchema,
    response: AccountSettingsSchema,
  },
  /** The client's own account: profile, settings and their marketing consent (front office My account). */
  account: {
    method: 'get',
    path: '/v4/:uuid/account',
    access: 'client',
    params: StudioParams,
    response: AccountSchema,
  },
  /** Front office `PATCH account`: any part of the client's own account at once. */
  patchAccount: {
    method: 'patch',
    path: '/v4/:uuid/account',
    access: 'client',
    params: StudioParams,
    body: AccountPatchSchema,
    response: AccountSchema,
  },
  /** The client's QR code payload (made on first use) and the studio's cards of theirs. */
  identity: {
    method: 'get',
    path: '/v4/:uuid/identity',
    access: 'client',
    params: StudioParams,
    response: MyIdentitySchema,
  },
  clientIdentities: {
    method: 'get',
    path: '/v4/:uuid/client/:user/client-identity/collection',
    access: 'staff',
    ability: 'clients.view',
    params: UserParams,
    response: ClientIdentityCollectionSchema,
  },
  addClientIdentity: {
    method: 'post',
    path: '/v4/:uuid/client/:user/client-identity',
    access: 'staff',
    ability: 'clients.edit',
    params: UserParams,
    body: ClientIdentityCreateInputSchema,
    status: 201,
    response: ClientIdentityViewSchema,
  },
  regenerateQr: {
    method: 'post',
    path: '/v4/:uuid/client/:user/client-identity/regenerate-qr',
    access: 'staff',
    ability: 'clients.edit',
    params: UserParams,
    response: QrPayloadSchema,
  },
  removeClientIdentity: {
    method: 'delete',
    path: '/v4/:uuid/client-identity/:clientIdentity',
    access: 'staff',
    ability: 'clients.edit',
    params: IdentityParams,
    status: 204,
    responseKind: 'empty',
  },
  linkInit: {
    method: 'get',
    path: '/v4/:uuid/user-account-link/init',
    access: 'client',
    params: StudioParams,
    response: LinkInitSchema,
  },
  findMyAccounts: {
    method: 'get',
    path: '/v4/:uuid/user-account-link/find-my-accounts',
    access: 'client',
    params: StudioParams,
    response: FindMyAccountsSchema,
  },
  connectLink: {
    method: 'post',
    path: '/v4/:uuid/user-account-link/connect',
    access: 'client',
    params: StudioParams,
    body: LinkConnectInputSchema,
    status: 201,
    response: LinkedAccountSchema,
  },
  changeLink: {
    method: 'patch',
    path: '/v4/:uuid/user-account-link-relation/:userAccountLinkRelation',
    access: 'client',
    params: LinkParams,
    body: LinkPatchInputSchema,
    response: LinkedAccountSchema,
  },
  removeLink: {
    method: 'delete',
    path: '/v4/:uuid/user-account-link-relation/:userAccountLinkRelation',
    access: 'client',
    params: LinkParams,
    status: 204,
    responseKind: 'empty',
  },
  messages: {
    method: 'get',
    path: '/v4/:uuid/user-message/collection',
    access: 'client',
    params: StudioParams,
    query: InboxQuerySchema,
    response: UserMessageListSchema,
  },
  readMessage: {
    method: 'patch',
    path: '/v4/:uuid/user-message/:userMessageGuid/read',
    access: 'client',
    params: MessageParams,
    response: UserMessageViewSchema,
  },
  /** The client writes to the studio (front office `messages`). */
  writeToStudio: {
    method: 'post',
    path: '/v4/:uuid/messages',
    access: 'client',
    params: StudioParams,
    body: ClientMessageInputSchema,
    status: 201,
    response: UserMessageViewSchema,
  },
  /** The studio writes to one client (their inbox, and a notification). */
  sendMessage: {
    method: 'post',
    path: '/v4/:uuid/user/send-message',
    access: 'staff',
    ability: 'clients.message',
    params: StudioParams,
    body: SendMessageInputSchema,
    status: 201,
    response: UserMessageViewSchema,
  },
  notifications: {
    method: 'get',
    path: '/v4/:uuid/user-notification/all',
    access: 'client',
    params: StudioParams,
    query: InboxQuerySchema,
    response: UserNotificationListSchema,
  },
  readAllNotifications: {
    method: 'patch',
    path: '/v4/:uuid/user-notification/read',
    access: 'client',
    params: StudioParams,
    response: NotificationsReadSchema,
  },
  readNotification: {
    method: 'patch',
    path: '/v4/:uuid/user-notification/:userNotificationGuid/read',
    access: 'client',
    params: NotificationParams,
    response: UserNotificationViewSchema,
  },
});
