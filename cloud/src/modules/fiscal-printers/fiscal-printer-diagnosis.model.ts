import type { z } from 'zod';
import type { DiagnoseResultSchema } from '../../../../shared/contracts/api/fiscal-printers';
import { StudioScopedModel } from '../../db/base.model';

/** A diagnose the back office asked for; the station runs it and posts the result. */
export class FiscalPrinterDiagnosis extends StudioScopedModel {
  static override tableName = 'fiscal_printer_diagnoses';
  printerId!: string;
  requestedBy!: string | null;
  completedAt!: Date | null;
  result!: z.output<typeof DiagnoseResultSchema> | null;

  static override get jsonAttributes() {
    return ['result'];
  }
}
