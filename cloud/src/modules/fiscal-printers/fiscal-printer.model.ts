import type {
  FiscalPrinterConnection,
  StationPrinterStatus,
} from '../../../../shared/contracts/api/fiscal-printers';
import type { VatSlotRate } from '../../../../shared/domain/receipts';
import { StudioScopedModel } from '../../db/base.model';

/** A studio's fiscal printer: a setting of one POS station (by the station's slug). */
export class StudioFiscalPrinter extends StudioScopedModel {
  static override tableName = 'studio_fiscal_printers';
  name!: string;
  stationSlug!: string;
  connection!: FiscalPrinterConnection;
  vatSlots!: VatSlotRate[];
  lastStatus!: StationPrinterStatus | null;
  lastSeenAt!: Date | null;

  static override get jsonAttributes() {
    return ['connection', 'vatSlots', 'lastStatus'];
  }
}
