import { z } from 'zod';
import {
  AgreementAnswersSchema,
  AgreementVersionInputSchema,
  AgreementVersionSchema,
  PendingAgreementSchema,
  AppearanceFileParams,
  AppearanceTypeParams,
  PictureUploadSchema,
  PictureViewSchema,
  StudioAppearanceSchema,
  StudioProfilePatchSchema,
  StudioSettingsPatchSchema,
  StudioSettingsSchema,
} from '../api/studio-admin';
import {
  BundleRequestInputSchema,
  BundleRequestSchema,
  BundleRequestStateSchema,
  FeedbackInputSchema,
  FeedbackSchema,
  StudioBankAccountInputSchema,
  StudioBankAccountPatchSchema,
  StudioBankAccountSchema,
  StudioDocumentPatchSchema,
  StudioDocumentSchema,
  TransferInstructionsSchema,
} from '../api/studio-records';
import {
  OpenByIdInputSchema,
  OpenByIdResultSchema,
  StudioConfigureInputSchema,
  StudioSetupSchema,
} from '../api/studio-setup';
import { contractGroup } from './define';
import { StudioParams, listOf, studioParams } from './params';

/**
 * Studio administration (issue 25, spec §7 "Studio": PATCH studio, GET/PATCH settings,
 * POST/DELETE studio-appearance/{type}; GET settings belongs to the client's settings, so the
 * studio's are read with GET studio). Staff read with `settings.view`, change with `settings.edit`;
 * the appearance itself is public (the front office, kiosk and widget show it signed out).
 */
export const StudioAdminApi = contractGroup('studio-admin', {
  /** GET settings is the client's own (client-accounts): the studio's are read here. */
  getSettings: {
    method: 'get',
    path: '/v4/:uuid/studio',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: StudioSettingsSchema,
  },
  patchSettings: {
    method: 'patch',
    path: '/v4/:uuid/settings',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: StudioSettingsPatchSchema,
    response: StudioSettingsSchema,
  },
  patchStudio: {
    method: 'patch',
    path: '/v4/:uuid/studio',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: StudioProfilePatchSchema,
    response: StudioSettingsSchema,
  },
  getAppearance: {
    method: 'get',
    path: '/v4/:uuid/studio-appearance',
    access: 'public',
    params: StudioParams,
    response: StudioAppearanceSchema,
  },
  /** Uploads the logo or cover: checked by its bytes, resized to the screens' size, stored as WebP. */
  postAppearancePicture: {
    method: 'post',
    path: '/v4/:uuid/studio-appearance/:type',
    access: 'staff',
    ability: 'settings.edit',
    params: AppearanceTypeParams,
    body: PictureUploadSchema,
    response: StudioSettingsSchema,
  },
  deleteAppearancePicture: {
    method: 'delete',
    path: '/v4/:uuid/studio-appearance/:type',
    access: 'staff',
    ability: 'settings.edit',
    params: AppearanceTypeParams,
    response: StudioSettingsSchema,
  },
  /** The stored picture (public, cached: its file name changes with every upload). */
  getAppearancePicture: {
    method: 'get',
    path: '/v4/:uuid/studio-appearance/:type/:file',
    access: 'public',
    params: AppearanceFileParams,
    responseKind: 'file',
    contentType: 'image/webp',
  },
  /** A picture for the studio's content (a location, a class): checked, resized, stored. */
  uploadPicture: {
    method: 'post',
    path: '/v4/:uuid/picture/upload',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: PictureUploadSchema,
    status: 201,
    response: PictureViewSchema,
  },
  deletePicture: {
    method: 'delete',
    path: '/v4/:uuid/picture/:picture',
    access: 'staff',
    ability: 'settings.edit',
    params: studioParams('picture'),
    status: 204,
    responseKind: 'empty',
  },
  getPicture: {
    method: 'get',
    path: '/v4/:uuid/picture/:picture',
    access: 'public',
    params: studioParams('picture'),
    responseKind: 'file',
    contentType: 'image/webp',
  },
  /** Every version of the studio's agreements, the current ones marked, with acceptance counts. */
  agreementVersions: {
    method: 'get',
    path: '/v4/:uuid/studio-agreement/all',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: listOf(AgreementVersionSchema),
  },
  /** Publishes a new version; clients answer it at their next sign-in. */
  publishAgreement: {
    method: 'post',
    path: '/v4/:uuid/studio-agreement',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: AgreementVersionInputSchema,
    status: 201,
    response: AgreementVersionSchema,
  },
  /** Who answered which version when (CSV, for the studio's records). */
  agreementAcceptancesCsv: {
    method: 'get',
    path: '/v4/:uuid/studio-agreement/acceptances.csv',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    responseKind: 'file',
    contentType: 'text/csv; charset=utf-8',
  },
  pendingAgreements: {
    method: 'get',
    path: '/v4/:uuid/studio-agreement/pending',
    access: 'client',
    params: StudioParams,
    response: z.object({ items: z.array(PendingAgreementSchema), next: z.null() }),
  },
  answerAgreements: {
    method: 'post',
    path: '/v4/:uuid/studio-agreement/accept',
    access: 'client',
    params: StudioParams,
    body: AgreementAnswersSchema,
    response: z.object({ items: z.array(PendingAgreementSchema), next: z.null() }),
  },

  // ------------------------------------------------------------------------ bank accounts
  bankAccounts: {
    method: 'get',
    path: '/v4/:uuid/studio-bank-account/collection',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: listOf(StudioBankAccountSchema),
  },
  createBankAccount: {
    method: 'post',
    path: '/v4/:uuid/studio-bank-account',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: StudioBankAccountInputSchema,
    status: 201,
    response: StudioBankAccountSchema,
  },
  patchBankAccount: {
    method: 'patch',
    path: '/v4/:uuid/studio-bank-account/:studioBankAccount',
    access: 'staff',
    ability: 'settings.edit',
    params: studioParams('studioBankAccount'),
    body: StudioBankAccountPatchSchema,
    response: StudioBankAccountSchema,
  },
  deleteBankAccount: {
    method: 'delete',
    path: '/v4/:uuid/studio-bank-account/:studioBankAccount',
    access: 'staff',
    ability: 'settings.edit',
    params: studioParams('studioBankAccount'),
    status: 204,
    responseKind: 'empty',
  },
  /** Where a client sends a bank transfer: the studio's default accounts first. */
  transferInstructions: {
    method: 'get',
    path: '/v4/:uuid/studio-bank-account/transfer',
    access: 'client',
    params: StudioParams,
    response: TransferInstructionsSchema,
  },

  // ---------------------------------------------------------------------------- documents
  studioDocuments: {
    method: 'get',
    path: '/v4/:uuid/studio-document/collection',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: listOf(StudioDocumentSchema),
  },
  /** `multipart/form-data` with the file in the part `file` (201); kept unpublished until staff publish it. */
  uploadStudioDocument: {
    method: 'post',
    path: '/v4/:uuid/studio-document',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    status: 201,
    response: StudioDocumentSchema,
  },
  patchStudioDocument: {
    method: 'patch',
    path: '/v4/:uuid/studio-document/:studioDocument',
    access: 'staff',
    ability: 'settings.edit',
    params: studioParams('studioDocument'),
    body: StudioDocumentPatchSchema,
    response: StudioDocumentSchema,
  },
  deleteStudioDocument: {
    method: 'delete',
    path: '/v4/:uuid/studio-document/:studioDocument',
    access: 'staff',
    ability: 'settings.edit',
    params: studioParams('studioDocument'),
    status: 204,
    responseKind: 'empty',
  },
  downloadStudioDocument: {
    method: 'get',
    path: '/v4/:uuid/studio-document/:studioDocument/download',
    access: 'staff',
    ability: 'settings.view',
    params: studioParams('studioDocument'),
    responseKind: 'file',
  },
  /** The published documents, for the studio's clients. */
  publishedDocuments: {
    method: 'get',
    path: '/v4/:uuid/studio-document/published',
    access: 'client',
    params: StudioParams,
    response: listOf(StudioDocumentSchema),
  },
  /** A published document's file, for the studio's clients (an unpublished one is not found). */
  downloadPublishedDocument: {
    method: 'get',
    path: '/v4/:uuid/studio-document/:studioDocument/file',
    access: 'client',
    params: studioParams('studioDocument'),
    responseKind: 'file',
  },

  // ----------------------------------------------------------------------------- feedback
  /** A client writes to the studio (front office `POST feedback`). */
  postFeedback: {
    method: 'post',
    path: '/v4/:uuid/feedback',
    access: 'client',
    params: StudioParams,
    body: FeedbackInputSchema,
    status: 201,
    response: FeedbackSchema,
  },
  /** What clients wrote, newest first (the last 200). */
  feedbackList: {
    method: 'get',
    path: '/v4/:uuid/feedback/collection',
    access: 'staff',
    ability: 'clients.view',
    params: StudioParams,
    response: listOf(FeedbackSchema),
  },

  // ------------------------------------------------------------------ premium apps bundle
  /** The studio's latest request for the premium mobile apps bundle, and its state. */
  bundleRequestState: {
    method: 'get',
    path: '/v4/:uuid/bundle/request',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: BundleRequestStateSchema,
  },
  /** Spec §7 POST bundle/request: asks the platform for the bundle (mailed to its operator). */
  postBundleRequest: {
    method: 'post',
    path: '/v4/:uuid/bundle/request',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: BundleRequestInputSchema,
    status: 201,
    response: BundleRequestSchema,
  },
  /** Withdraws the open request (the operator is told). */
  withdrawBundleRequest: {
    method: 'delete',
    path: '/v4/:uuid/bundle/request',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    response: BundleRequestStateSchema,
  },

  // --------------------------------------------------------------------- first-run setup
  /** The setup checklist (steps derived from the studio's data) and the first step's values. */
  getConfigure: {
    method: 'get',
    path: '/v4/:uuid/configure',
    access: 'staff',
    ability: 'settings.view',
    params: StudioParams,
    response: StudioSetupSchema,
  },
  /** Spec §7 PATCH configure: the setup wizard's save (type, zone, currency, language, first place). */
  patchConfigure: {
    method: 'patch',
    path: '/v4/:uuid/configure',
    access: 'staff',
    ability: 'settings.edit',
    params: StudioParams,
    body: StudioConfigureInputSchema,
    response: StudioSetupSchema,
  },

  // -------------------------------------------------------------------------- open by id
  /**
   * Spec §7 POST uuid: what an id pasted into the search box is, and where the back office shows it.
   * Any member of staff (as the search box); each kind of record needs the ability that shows it.
   */
  postUuid: {
    method: 'post',
    path: '/v4/:uuid/uuid',
    access: 'staff',
    params: StudioParams,
    body: OpenByIdInputSchema,
    response: OpenByIdResultSchema,
    readOnly: true,
  },
});
