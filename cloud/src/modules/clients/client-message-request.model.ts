import { StudioScopedModel } from '../../db/base.model';

/**
 * A bulk "message these clients" request, recorded only: campaigns (a later module) send it. The
 * recipients are kept as they were chosen, so what was asked stays provable.
 */
export class ClientMessageRequest extends StudioScopedModel {
  static override tableName = 'client_message_requests';
  requestedBy!: string | null;
  subject!: string;
  content!: string;
  recipientIds!: string[];
  recipientCount!: number;

  static override get jsonAttributes() {
    return ['recipientIds'];
  }
}
