/**
 * The dataProvider, assembled: the base speaks the /api/v1 conventions for every declared resource
 * (base.ts), and each area's named verbs cover the extra calls of SPEC §7 (one file per area).
 * Why not ra-data-simple-rest: docs/decisions/003-data-provider.md.
 */
import type { DataProvider } from "react-admin";
import { apiResourceOf } from "../core/resources";
import { activityVerbs, importVerbs } from "./activities";
import { baseDataProvider } from "./base";
import { dashboardVerbs } from "./dashboards";
import { driveVerbs } from "./drive";
import { holidayVerbs } from "./holidays";
import { mailVerbs } from "./mail";
import { pipelineVerbs } from "./pipeline";
import { recordVerbs } from "./records";
import { reportVerbs } from "./reports";

export {
  ACTIVITIES_CSV_FORMAT_URL,
  type ActivitySkipped,
  activityVerbs,
  type FreezeVerb,
  ImportCallError,
  importVerbs,
  type WeekDraft,
  type WeekDraftUpdate,
  type WeekSaveAnswer,
  type WeekState,
} from "./activities";
export { baseDataProvider, listQuery } from "./base";
export {
  type ClientDashboard,
  dashboardVerbs,
  type EmployeeDashboard,
  type ProjectDashboard,
  type TeamDashboard,
} from "./dashboards";
export { downloadCsv } from "./downloads";
export { type FieldLabelLookup, provideFieldLabels } from "./fieldLabels";
export { type DriveItem, driveVerbs } from "./drive";
export { HolidayImportError, type HolidayImportResult, holidayVerbs } from "./holidays";
export { type IntegrationCheck, type IntegrationView, integrationVerbs } from "./integrations";
export { type JobRunAnswer, type JobRunView, type JobView, jobVerbs } from "./jobs";
export { mailVerbs, type OutboxMessage, type OutboxSummary } from "./mail";
export { type AuditLog, type ProjectStage, type ProjectTransition, pipelineVerbs, type QuotationTransition } from "./pipeline";
export { recordVerbs } from "./records";
export { reportVerbs } from "./reports";

/** Every named verb the dataProvider answers (the jobs' and integrations' pages call their own). */
const verbs = {
  ...recordVerbs,
  ...driveVerbs,
  ...pipelineVerbs,
  ...holidayVerbs,
  ...activityVerbs,
  ...importVerbs,
  ...reportVerbs,
  ...dashboardVerbs,
  ...mailVerbs,
};
export type SiaDataProvider = DataProvider & typeof verbs;

/** The base's methods, called with the API's resource name (react-admin's may be the SPEC §2 path's). */
function withApiResourceNames(base: DataProvider): DataProvider {
  const mapped: Record<string, unknown> = {};
  for (const [name, method] of Object.entries(base)) {
    mapped[name] =
      typeof method === "function" ? (resource: string, params: unknown) => method(apiResourceOf(resource), params) : method;
  }
  return mapped as DataProvider;
}

export const dataProvider: SiaDataProvider = { ...withApiResourceNames(baseDataProvider), ...verbs };
