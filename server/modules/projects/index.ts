/** What other modules and the jobs use of the projects module. */
export { applyProjectEvent, nextProjectCode, recordCreation } from "./service";
