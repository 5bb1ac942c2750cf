/** What other modules and the jobs use of the activities module. */
export { loadSettings, localDaySql } from "./service";
