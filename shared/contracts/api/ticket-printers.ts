import { z } from 'zod';

/**
 * The ESC/POS ticket printer of a POS station (`studio-pos`) or a kiosk (`studio-kiosk`): where the
 * desktop station sends shift summaries and check-in slips. Not fiscal (fiscal printers:
 * `./fiscal-printers.ts`). Decisions: cloud/src/modules/stations/README.md "Ticket printers".
 *
 * - `none`: the station prints no tickets;
 * - `tcp`: a LAN printer on its raw port (9100 by default), `address` a host name or IP address;
 * - `usb-file`: the printer's device file on the station (`/dev/usb/lp0`, `\\.\USB001`): the bytes are
 *   written to it as to a file.
 */
export const TICKET_PRINTER_KINDS = ['none', 'tcp', 'usb-file'] as const;
export type TicketPrinterKind = (typeof TICKET_PRINTER_KINDS)[number];
/** Characters per line: 32 for 58 mm paper, 42 or 48 for 80 mm (font A/B). */
export const TICKET_PRINTER_WIDTHS = [32, 42, 48] as const;
export const TICKET_PRINTER_DEFAULT_PORT = 9100;

/** A DNS name (RFC 1123 labels) or a dotted IPv4 address; IPv6 in brackets or bare. */
const HOST_NAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const IPV4 = /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const IPV6 = /^\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\]?$/;
const looksLikeIpv4 = (v: string) => /^[\d.]+$/.test(v);

export function isTicketPrinterHost(value: string): boolean {
  if (looksLikeIpv4(value)) return IPV4.test(value);
  return HOST_NAME.test(value) || IPV6.test(value);
}

/** An absolute path on the station: `/dev/usb/lp0`, `C:\…`, `\\.\USB001`. */
export function isTicketPrinterDevicePath(value: string): boolean {
  const hasControl = [...value].some((c) => c.charCodeAt(0) < 0x20);
  return /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(value) && !hasControl;
}

/**
 * What the back office sends (`PUT …/ticket-printer`) and the station receives. One flat shape for
 * every kind so a form keeps what was typed when the kind changes; the fields a kind does not use
 * are cleared on the way in. Every wrong field is reported (400 with `fields`).
 */
export const TicketPrinterSettingsSchema = z
  .strictObject({
    kind: z.enum(TICKET_PRINTER_KINDS, { error: 'choose none, tcp or usb-file' }),
    address: z.string().trim().max(253, 'at most 253 characters').default(''),
    port: z.number('a number').int('a whole number').nullable().optional(),
    widthChars: z
      .number('a number')
      .refine((n) => (TICKET_PRINTER_WIDTHS as readonly number[]).includes(n), '32, 42 or 48')
      .default(48),
    cut: z.boolean('true or false').default(true),
  })
  .superRefine(
    (value, ctx) => {
      // Runs even when another field failed (`when`), so every wrong field is reported at once: the
      // value may then be partly the raw input, hence the type checks — or not an object at all
      // (`null`: the generated-input suite found it threw a TypeError, a 500).
      if (typeof value !== 'object' || value === null) return;
      const address = typeof value.address === 'string' ? value.address.trim() : null;
      if (value.kind === 'tcp') {
        if (address === '') ctx.addIssue({ code: 'custom', path: ['address'], message: 'required' });
        else if (address !== null && !isTicketPrinterHost(address))
          ctx.addIssue({ code: 'custom', path: ['address'], message: 'a host name or IP address' });
        const port = value.port ?? TICKET_PRINTER_DEFAULT_PORT;
        if (typeof port === 'number' && (port < 1 || port > 65535))
          ctx.addIssue({ code: 'custom', path: ['port'], message: 'between 1 and 65535' });
      } else if (value.kind === 'usb-file') {
        if (address === '') ctx.addIssue({ code: 'custom', path: ['address'], message: 'required' });
        else if (address !== null && !isTicketPrinterDevicePath(address))
          ctx.addIssue({ code: 'custom', path: ['address'], message: 'an absolute device path' });
      }
    },
    { when: () => true },
  )
  .transform((value) => ({
    kind: value.kind,
    address: value.kind === 'none' ? '' : value.address.replace(/^\[(.*)\]$/, '$1'),
    port: value.kind === 'tcp' ? (value.port ?? TICKET_PRINTER_DEFAULT_PORT) : null,
    widthChars: value.widthChars as TicketPrinterWidth,
    cut: value.cut,
  }));
export type TicketPrinterWidth = (typeof TICKET_PRINTER_WIDTHS)[number];
export type TicketPrinterSettingsInput = z.input<typeof TicketPrinterSettingsSchema>;

/** As it leaves the server (and as the station keeps it). */
export const TicketPrinterSchema = z.object({
  kind: z.enum(TICKET_PRINTER_KINDS),
  address: z.string(),
  port: z.number().int().nullable(),
  widthChars: z.union([z.literal(32), z.literal(42), z.literal(48)]),
  cut: z.boolean(),
});
export type TicketPrinter = z.infer<typeof TicketPrinterSchema>;

export const NO_TICKET_PRINTER: TicketPrinter = {
  kind: 'none',
  address: '',
  port: null,
  widthChars: 48,
  cut: true,
};

/** A stored value (jsonb, possibly null or from an older shape) → what is presented; anything unreadable is `none`. */
export function ticketPrinterOf(raw: unknown): TicketPrinter {
  const parsed = TicketPrinterSettingsSchema.safeParse(raw ?? NO_TICKET_PRINTER);
  return parsed.success ? parsed.data : NO_TICKET_PRINTER;
}

/** What the back office's editors offer (returned by `studio-pos/init` and `studio-kiosk/init`). */
export const TicketPrinterOptionsSchema = z.object({
  kinds: z.array(z.enum(TICKET_PRINTER_KINDS)),
  widths: z.array(z.number()),
  defaultPort: z.number(),
});
export type TicketPrinterOptions = z.infer<typeof TicketPrinterOptionsSchema>;
export const TICKET_PRINTER_OPTIONS: TicketPrinterOptions = {
  kinds: [...TICKET_PRINTER_KINDS],
  widths: [...TICKET_PRINTER_WIDTHS],
  defaultPort: TICKET_PRINTER_DEFAULT_PORT,
};

/** What a desk station reads with its device token (`GET …/station-ticket-printer/{pos|kiosk}/…`). */
export const StationTicketPrinterSchema = z.object({ ticketPrinter: TicketPrinterSchema });
export type StationTicketPrinter = z.infer<typeof StationTicketPrinterSchema>;
