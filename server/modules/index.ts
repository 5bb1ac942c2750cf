/** Every declared resource of the API, registered by server/app.ts. */
import { assignmentsResource } from "./assignments/resource";
import { clientsResource } from "./clients/resource";
import { employeePositionsResource } from "./employee_positions/resource";
import { employeesResource } from "./employees/resource";
import { usersResource } from "./users/resource";
import { workspacesResource } from "./workspaces/resource";

export const resources = [
  clientsResource,
  usersResource,
  employeesResource,
  workspacesResource,
  assignmentsResource,
  employeePositionsResource,
];
