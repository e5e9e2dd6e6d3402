/**
 * Non-fiscal tickets printed on a plain ESC/POS printer (node-thermal-printer). Dates and times come
 * already formatted in the studio's time zone; amounts are integer minor units.
 */
export interface TicketPrinter {
  /** Prints one job: the tickets one after another, each cut off. */
  print(tickets: Ticket | Ticket[]): Promise<void>;
  isConnected(): Promise<boolean>;
}

export type Ticket = CheckInSlip | ClassTicket | ShiftSummary;

/** The kiosk's check-in slip. */
export interface CheckInSlip {
  kind: 'checkIn';
  studioName: string;
  clientName: string;
  checkedInAt: string;
  className?: string;
  startsAt?: string;
  room?: string;
  passName?: string;
  entriesLeft?: number;
}

export interface ClassTicket {
  kind: 'classTicket';
  studioName: string;
  ticketNumber: string;
  className: string;
  startsAt: string;
  clientName: string;
  instructor?: string;
  room?: string;
}

export interface ShiftSummary {
  kind: 'shiftSummary';
  studioName: string;
  stationName: string;
  cashierName: string;
  openedAt: string;
  closedAt: string;
  receipts: number;
  cancelledReceipts: number;
  currency: string;
  byPayment: { label: string; amount: number }[];
  total: number;
}
