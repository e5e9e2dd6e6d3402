import { BaseModel } from '../../db/base.model';

export interface StudioAppearance {
  defaultLogo?: { absoluteUrl: string } | null;
  primaryColor?: string;
}

export class Studio extends BaseModel {
  static override tableName = 'studios';
  name!: string;
  slug!: string;
  currency!: string;
  defaultLocale!: string;
  timeZone!: string;
  studioType!: number;
  addressLine!: string;
  postalCode!: string;
  city!: string;
  country!: string;
  kioskKey!: string;
  logoUrl!: string | null;
  appearance!: StudioAppearance;
  settings!: Record<string, unknown>;

  static override get jsonAttributes() {
    return ['appearance', 'settings'];
  }
}
