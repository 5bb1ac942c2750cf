/** Every declared resource of the API, registered by server/app.ts. */
import { activityTypeCatalogsResource } from "./activity_type_catalogs/resource";
import { appLicensesResource } from "./app_licenses/resource";
import { appSettingsResource } from "./app_settings/resource";
import { clientGroupsResource } from "./client_groups/resource";
import { clientsResource } from "./clients/resource";
import { estimatedWorkHoursResource } from "./estimated_work_hours/resource";
import { holydaysResource } from "./holydays/resource";
import { productsResource } from "./products/resource";
import { projectTypesResource } from "./project_types/resource";
import { prospectsResource } from "./prospects/resource";

export const resources = [
  clientsResource,
  prospectsResource,
  clientGroupsResource,
  holydaysResource,
  productsResource,
  appLicensesResource,
  estimatedWorkHoursResource,
  projectTypesResource,
  activityTypeCatalogsResource,
  appSettingsResource,
];
