/** What other modules use of the boards: who is on a project's board and what they have not read. */
export { memberSql, unreadCountSql, unreadTotal } from "./service";
