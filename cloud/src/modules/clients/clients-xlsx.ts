import { PassThrough, type Readable } from 'node:stream';
import { UserSex } from '../../../../shared/enums/users';
import type { Knex } from '../../db/knex';
import { loadExcelJS } from '../../libraries';
import { hasTrigramSearch, pageOfClients, type ResolvedClientFilter } from './client-list.service';
import { EXPORT_COLUMNS, presentClientListItem } from './clients.presenter';

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const PAGE = 500;
const SEX_NAMES = new Map<number, string>(Object.entries(UserSex).map(([name, value]) => [value, name]));

/**
 * The client export as an XLSX workbook, written as it is read: exceljs's streaming WorkbookWriter
 * zips each committed row into the response, a keyset page (500 clients) at a time, so neither the
 * workbook nor the list is ever whole in memory. Same columns and values as the CSV; cells are
 * always plain values (never formulas), so no formula escaping is needed.
 */
export async function clientsXlsxStream(
  knex: Knex,
  studioId: string,
  filter: ResolvedClientFilter,
): Promise<Readable> {
  const ExcelJS = await loadExcelJS();
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = workbook.addWorksheet('clients', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = EXPORT_COLUMNS.map((key) => ({
    header: key,
    key,
    width: key === 'id' || key === 'emailAddress' || key === 'createdAt' ? 28 : 16,
  }));
  void (async () => {
    const trigram = await hasTrigramSearch(knex);
    let cursor: string | undefined;
    do {
      const page = await pageOfClients(knex, studioId, filter, { limit: PAGE, cursor }, trigram);
      for (const row of page.rows) {
        const item = presentClientListItem(row);
        sheet
          .addRow({
            id: item.id,
            firstName: item.firstName,
            lastName: item.lastName,
            emailAddress: item.emailAddress,
            phone: item.phone,
            birthDate: item.birthDate,
            sex: item.sex === null ? null : (SEX_NAMES.get(item.sex) ?? String(item.sex)),
            status: item.status,
            tags: item.tags.map((t) => t.name).join(', '),
            hasValidPass: item.hasValidPass,
            createdAt: item.createdAt,
          })
          .commit();
      }
      cursor = page.next ?? undefined;
    } while (cursor);
    sheet.commit();
    await workbook.commit();
  })().catch((err: unknown) => out.destroy(err instanceof Error ? err : new Error(String(err))));
  return out;
}
