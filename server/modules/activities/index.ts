/** What other modules and the jobs use of the activities module. */
export { employeeFor, isAdmin, loadSettings, localDaySql } from "./service";
export { lockEmployeeWeeks } from "./weekLock";
