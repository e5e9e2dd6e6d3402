/**
 * Every command handler, registered at import. recordSale@1 is in sales.commands.ts.
 */
import './clients.commands';
import './visits.commands';
import './sales.commands';
import './charge-sale.commands';
import './kiosk.commands';
import './appointments.commands';

export { findHandler, registeredCommands, type CommandHandler } from './registry';
