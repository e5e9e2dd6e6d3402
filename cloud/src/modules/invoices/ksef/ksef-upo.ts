import { create } from 'xmlbuilder2';

/**
 * An invoice's UPO (urzędowe poświadczenie odbioru) as KSeF issues it, schema upo-v4-3
 * (ksef-docs `faktury/upo/schemy/upo-v4-3.xsd`, example `upo-faktura-kontekst-id-nip.xml`). The
 * product stores the UPO KSeF returns as it came; this builds one for the demo seed and the local fake.
 */
export function upoDocument(args: {
  receiver: string;
  sessionReference: string;
  nip: string;
  authenticationHash: string;
  ksefNumber: string;
  invoiceNumber: string;
  issueDate: string;
  receivedAt: Date;
  invoiceHash: string;
  offline: boolean;
}): string {
  const doc = create({ version: '1.0', encoding: 'utf-8' });
  const root = doc.ele('http://upo.schematy.mf.gov.pl/KSeF/v4-3', 'Potwierdzenie');
  root.ele('NazwaPodmiotuPrzyjmujacego').txt(args.receiver);
  root.ele('NumerReferencyjnySesji').txt(args.sessionReference);
  const auth = root.ele('Uwierzytelnienie');
  auth.ele('IdKontekstu').ele('Nip').txt(args.nip);
  auth.ele('SkrotDokumentuUwierzytelniajacego').txt(args.authenticationHash);
  root.ele('NazwaStrukturyLogicznej').txt('Schemat_FA(3)_v1-0E.xsd');
  root.ele('KodFormularza').txt('FA (3)');
  const d = root.ele('Dokument');
  d.ele('NipSprzedawcy').txt(args.nip);
  d.ele('NumerKSeFDokumentu').txt(args.ksefNumber);
  d.ele('NumerFaktury').txt(args.invoiceNumber);
  d.ele('DataWystawieniaFaktury').txt(args.issueDate);
  d.ele('DataPrzeslaniaDokumentu').txt(args.receivedAt.toISOString());
  d.ele('DataNadaniaNumeruKSeF').txt(args.receivedAt.toISOString());
  d.ele('SkrotDokumentu').txt(args.invoiceHash);
  d.ele('TrybWysylki').txt(args.offline ? 'Offline' : 'Online');
  return doc.end({ prettyPrint: true });
}
