/**
 * Tickets port: searching work items of a work-tracking service (SPEC §7 get_ticket_by_proyect).
 * The local default is `NoTickets` (no service configured); the app holds one port (`app.tickets`, chosen
 * by createTickets from the configuration, or given by a test). An adapter fails with a TicketsError, a
 * Spanish reason the user can act on; the module calling the port turns it into its HTTP answer.
 */
import { messages } from "../../../src/core/messages";
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

/** Why a search or a check failed, for the caller (and the logs) to tell the cases apart. */
export type TicketsErrorKind =
  | "not_configured"
  | "no_token"
  | "no_project"
  | "project_not_found"
  | "unauthorized"
  | "unreachable"
  | "bad_answer";

/** A failure of the tickets service, with the Spanish reason shown to the user. */
export class TicketsError extends Error {
  constructor(
    readonly kind: TicketsErrorKind,
    message: string,
  ) {
    super(message);
    this.name = "TicketsError";
  }
}

export class NoTickets implements TicketsPort {
  readonly kind = "none";
  async search(): Promise<Ticket[]> {
    throw new TicketsError("not_configured", messages.ticketsNotConfigured);
  }
  /** Nothing to reach. */
  async check(): Promise<void> {}
}
