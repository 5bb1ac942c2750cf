/** What other modules, the jobs and the benchmarks use of the reports module. */
export { ACTIVITY_REPORT_HEADERS, activityLine, reportQuery } from "./report";
