import { StudioScopedModel } from '../../db/base.model';

/** A file kept on a client: metadata here, bytes under DATA_DIR/client-documents/<studio>/<id>. */
export class ClientDocument extends StudioScopedModel {
  static override tableName = 'client_documents';
  clientId!: string;
  uploadedBy!: string | null;
  /** As uploaded (cleaned of path parts and control characters); only ever sent back in headers. */
  fileName!: string;
  contentType!: string;
  sizeBytes!: number | string;
  sha256!: string;
}
