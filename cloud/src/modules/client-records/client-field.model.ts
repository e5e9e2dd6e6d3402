import type { ClientCustomFieldType } from '../../../../shared/enums/clients';
import type { FieldOption, FieldSettings, FieldText } from '../../../../shared/domain/client-fields';
import { StudioScopedModel } from '../../db/base.model';

/** A custom field the studio keeps on its clients (definition; values are `client_field_values`). */
export class ClientField extends StudioScopedModel {
  static override tableName = 'client_fields';
  static override get jsonAttributes() {
    return ['name', 'options', 'settings'];
  }
  name!: FieldText;
  type!: ClientCustomFieldType;
  required!: boolean;
  encrypted!: boolean;
  options!: FieldOption[];
  settings!: FieldSettings;
  position!: number;
}
