/** What other modules use of the integrations module. */
export { searchTickets } from "./tickets";
