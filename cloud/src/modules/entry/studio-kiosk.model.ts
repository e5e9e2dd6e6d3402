import { StudioScopedModel } from '../../db/base.model';

/**
 * A kiosk device of a studio. Kiosk sign-in (the studio's uuid and kiosk key) opens the studio's
 * default kiosk; its id is the `guid` in /{uuid}/kiosk/{guid}. The kiosk issue adds more per studio.
 */
export class StudioKiosk extends StudioScopedModel {
  static override tableName = 'studio_kiosks';
  name!: string;
  isDefault!: boolean;
}
