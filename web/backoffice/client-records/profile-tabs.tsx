import type { ClientProfileTabProps } from '../clients/profile-tabs';
import { useStudioUuid } from '../staff/staff.api';
import { CustomFieldsTab } from './CustomFieldsTab';
import { DocumentsTab } from './DocumentsTab';
import { DuplicatesTab } from './MergeDuplicateDialog';

/** Adapters for the client profile's tab registry (web/backoffice/clients/profile-tabs.tsx). */
export function DocumentsProfileTab({ clientId }: ClientProfileTabProps) {
  return <DocumentsTab studioUuid={useStudioUuid()} clientId={clientId} />;
}
export function CustomFieldsProfileTab({ clientId }: ClientProfileTabProps) {
  return <CustomFieldsTab studioUuid={useStudioUuid()} clientId={clientId} />;
}
export function DuplicatesProfileTab({ clientId }: ClientProfileTabProps) {
  return <DuplicatesTab studioUuid={useStudioUuid()} clientId={clientId} />;
}
