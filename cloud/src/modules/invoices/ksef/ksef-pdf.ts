import type { InvoiceView } from '../../../../../shared/contracts/api/invoices';
import type { Db } from '../../../db/knex';
import { loadQrCode } from '../../../libraries';
import { certificateVerificationUrl, invoiceVerificationUrl } from './ksef-crypto';
import { ksefRow } from './ksef-send.service';
import { ksefSecrets, KSEF_QR_URLS } from './ksef-settings.service';

/** What an invoice's PDF prints about KSeF (kody-qr.md): the codes, each with its caption. */
export interface KsefPdfBlock {
  ksefNumber: string | null;
  offline: boolean;
  codes: { png: Buffer; url: string; caption: string; kind: 'invoice' | 'certificate' }[];
}

const qrPng = async (url: string) =>
  (await loadQrCode()).toBuffer(url, { errorCorrectionLevel: 'M', margin: 2, scale: 4 });

/**
 * KOD I once the document exists (its hash is fixed): captioned with the KSeF number when known, else
 * "OFFLINE". An invoice issued in offline mode also carries KOD II, captioned "CERTYFIKAT", signed with
 * the studio's KSeF offline certificate (none saved: no KOD II, the PDF says so). A refused invoice is
 * not in KSeF: no codes.
 */
export async function ksefPdfBlock(db: Db, invoice: InvoiceView): Promise<KsefPdfBlock | null> {
  const row = await ksefRow(db, invoice.id);
  if (!row?.invoiceHash || row.status === 'refused') return null;
  const sellerNip = invoice.seller.taxId ?? '';
  const qrBase = KSEF_QR_URLS[row.environment];
  const kod1 = invoiceVerificationUrl(qrBase, sellerNip, invoice.issueDate, row.invoiceHash);
  const codes: KsefPdfBlock['codes'] = [
    { png: await qrPng(kod1), url: kod1, caption: row.ksefNumber ?? 'OFFLINE', kind: 'invoice' },
  ];
  if (row.mode === 'offline') {
    const secrets = await ksefSecrets(db, row.studioId);
    if (secrets?.certificate) {
      const kod2 = certificateVerificationUrl(qrBase, {
        contextNip: sellerNip,
        sellerNip,
        certificateSerial: secrets.certificate.serial,
        invoiceHashBase64: row.invoiceHash,
        privateKeyPem: secrets.certificate.privateKeyPem,
      });
      codes.push({ png: await qrPng(kod2), url: kod2, caption: 'CERTYFIKAT', kind: 'certificate' });
    }
  }
  return { ksefNumber: row.ksefNumber, offline: row.mode === 'offline', codes };
}
