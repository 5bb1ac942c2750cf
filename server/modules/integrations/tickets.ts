/**
 * The tickets port seen from the API: a search whose failures answer what the calendar expects (SPEC §8),
 * a 422 titled "Azure Devops" with the Spanish reason; a failure the port did not foresee is logged and
 * answered with the generic reason.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { messages } from "../../../src/core/messages";
import { HttpError } from "../../http/errors";
import { type Ticket, type TicketSearch, TicketsError } from "../../ports/tickets";

/** The 422 the tickets search answers: {title: "Azure Devops", errors: {base: [message]}}. */
export const ticketsHttpError = (message: string) =>
  new HttpError(422, message, { title: messages.ticketsTitle, errors: { base: [message] } });

export async function searchTickets(app: FastifyInstance, request: FastifyRequest, query: TicketSearch): Promise<Ticket[]> {
  try {
    return await app.tickets.search(query);
  } catch (error) {
    if (error instanceof TicketsError) throw ticketsHttpError(error.message);
    if (error instanceof HttpError) throw error;
    request.log.error({ err: error }, "tickets port failed");
    throw ticketsHttpError(messages.ticketsFailed);
  }
}
