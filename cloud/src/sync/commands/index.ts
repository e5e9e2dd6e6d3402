/**
 * Every command handler, registered at import. Left for the sales/POS module (docs: README): recordSale@1.
 */
import './clients.commands';
import './visits.commands';

export { findHandler, registeredCommands, type CommandHandler } from './registry';
