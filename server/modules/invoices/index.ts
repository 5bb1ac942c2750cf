/** What other modules use of the invoices module. */
export { invoicedPercentage } from "./service";
