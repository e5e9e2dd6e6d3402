import type { ClientNoteType } from '../../../../shared/enums/clients';
import { StudioScopedModel } from '../../db/base.model';

/** A note staff keep on a client: private (staff only) or public (the client may see it). */
export class ClientNote extends StudioScopedModel {
  static override tableName = 'client_notes';
  /** The client's user id. */
  clientId!: string;
  authorId!: string | null;
  type!: ClientNoteType;
  content!: string;
}
