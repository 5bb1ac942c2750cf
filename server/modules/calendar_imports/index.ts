/** What other modules use of the timesheet imports. */
export { rememberSeries } from "./service";
