/** Every declared resource of the API, registered by server/app.ts. */

import { localAdminRoutes } from "../cli/localAdmin";
import { activitiesResource } from "./activities/resource";
import { activityTypeCatalogsResource } from "./activity_type_catalogs/resource";
import { appLicensesResource } from "./app_licenses/resource";
import { appSettingsResource } from "./app_settings/resource";
import { assignmentsResource } from "./assignments/resource";
import { boardRoutes } from "./board/routes";
import { realtimeRoutes } from "./board/stream";
import { calendarImportRoutes } from "./calendar_imports/routes";
import { clientGroupsResource } from "./client_groups/resource";
import { clientsResource } from "./clients/resource";
import { capacityRoutes } from "./dashboards/capacityRoutes";
import { dashboardRoutes } from "./dashboards/routes";
import { employeePositionsResource } from "./employee_positions/resource";
import { employeesResource } from "./employees/resource";
import { estimatedWorkHoursResource } from "./estimated_work_hours/resource";
import { googleRoutes } from "./google/routes";
import { holydaysResource } from "./holydays/resource";
import { integrationsRoutes } from "./integrations/routes";
import { invoicesResource } from "./invoices/resource";
import { notificationRoutes } from "./notifications/routes";
import { productsResource } from "./products/resource";
import { projectTypesResource } from "./project_types/resource";
import { projectsResource } from "./projects/resource";
import { prospectsResource } from "./prospects/resource";
import { pushRoutes } from "./push/routes";
import { quotationsResource } from "./quotations/resource";
import { reportRoutes } from "./reports/routes";
import { usersResource } from "./users/resource";
import { weekReviewRoutes } from "./week_reviews/routes";
import { workspacesResource } from "./workspaces/resource";

export const resources = [
  clientsResource,
  prospectsResource,
  quotationsResource,
  clientGroupsResource,
  usersResource,
  employeesResource,
  employeePositionsResource,
  workspacesResource,
  assignmentsResource,
  holydaysResource,
  productsResource,
  appLicensesResource,
  estimatedWorkHoursResource,
  projectTypesResource,
  activityTypeCatalogsResource,
  appSettingsResource,
  activitiesResource,
  projectsResource,
  invoicesResource,
];

/** Modules with routes only (no declared resource), registered under /api/v1 after the resources. */
export const routeModules = [
  calendarImportRoutes,
  reportRoutes,
  dashboardRoutes,
  capacityRoutes,
  integrationsRoutes,
  googleRoutes,
  boardRoutes,
  realtimeRoutes,
  notificationRoutes,
  pushRoutes,
  weekReviewRoutes,
  localAdminRoutes,
];
