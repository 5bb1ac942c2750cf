/**
 * Tickets port: searching work items of a work-tracking service (SPEC §7 get_ticket_by_proyect).
 * The local default is `NoTickets` (no service configured: a clear 422 titled "Azure Devops"); the app
 * holds one port (`app.tickets`, chosen by createTickets from the configuration, or given by a test).
 * Errors of any adapter are titled "Azure Devops" (SPEC §8), so the calendar shows them under that title.
 */
import { messages } from "../../../src/core/messages";
import { HttpError } from "../../http/errors";
import type { Integration } from "../integration";

export interface Ticket {
  id: string;
  name: string;
  state?: string | null;
  url?: string | null;
}
export interface TicketSearch {
  search: string;
  project_id?: number | null;
  client_id?: number | null;
  product_catalog_id?: number | null;
  /** The signed-in user's id (an adapter may use the user's own azure token). */
  user_id: number;
}
export interface TicketsPort extends Integration {
  search(query: TicketSearch): Promise<Ticket[]>;
}

/** A 422 titled "Azure Devops": {title, errors: {base: [message]}}. */
export const ticketsError = (message: string) =>
  new HttpError(422, message, { title: messages.ticketsTitle, errors: { base: [message] } });

export class NoTickets implements TicketsPort {
  readonly kind = "none";
  async search(): Promise<Ticket[]> {
    throw ticketsError(messages.ticketsNotConfigured);
  }
  /** Nothing to reach. */
  async check(): Promise<void> {}
}
