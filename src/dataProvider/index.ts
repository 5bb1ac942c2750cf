/**
 * The dataProvider, assembled: the base speaks the /api/v1 conventions for every declared resource
 * (base.ts), and each area's named verbs cover the extra calls of SPEC §7 (one file per area). It is the
 * browser's one way to the API: screens call it through react-admin's `useDataProvider<SiaDataProvider>()`,
 * inside react-admin's or react-query's hooks, and import from here only types, `dataProvider` itself and
 * the few plain helpers below (tests/unit/importGraph.test.ts holds the list).
 * Why not ra-data-simple-rest: docs/decisions/003-data-provider.md.
 */
import type { DataProvider } from "react-admin";
import { apiResourceOf } from "../core/resources";
import { activityVerbs, importVerbs } from "./activities";
import { baseDataProvider } from "./base";
import { boardVerbs } from "./board";
import { dashboardVerbs } from "./dashboards";
import { downloadVerbs } from "./downloads";
import { driveVerbs } from "./drive";
import { holidayVerbs } from "./holidays";
import { integrationVerbs } from "./integrations";
import { jobVerbs } from "./jobs";
import { mailVerbs } from "./mail";
import { pipelineVerbs } from "./pipeline";
import { recordVerbs } from "./records";
import { reportVerbs } from "./reports";
import { reviewVerbs } from "./reviews";

export {
  ACTIVITIES_CSV_FORMAT_URL,
  type ActivitySkipped,
  type FreezeVerb,
  ImportCallError,
  importVerbs,
  type WeekDraft,
  type WeekDraftUpdate,
  type WeekSaveAnswer,
  type WeekState,
} from "./activities";
export { baseDataProvider, listQuery } from "./base";
export type { BellNotification, BoardMember, BoardMessage, RealtimeEvent, Summary } from "./board";
export type {
  Capacity,
  CapacityFilter,
  CapacityPerson,
  CapacityWeek,
  ClientDashboard,
  EmployeeDashboard,
  ProjectDashboard,
  TeamDashboard,
} from "./dashboards";
export { downloadCsv } from "./downloads";
export type { DriveItem } from "./drive";
export { listen } from "./events";
export { type FieldLabelLookup, provideFieldLabels } from "./fieldLabels";
export { HolidayImportError, type HolidayImportResult } from "./holidays";
export { validationFromBody } from "./http";
export type { IntegrationCheck, IntegrationView } from "./integrations";
export type { BackupDoneAnswer, BackupView, JobRunAnswer, JobRunView, JobView } from "./jobs";
export type { OutboxMessage, OutboxSummary } from "./mail";
export type { AuditLog, ProjectStage, ProjectTransition, QuotationTransition } from "./pipeline";
export type { ReviewState, WeekReview, WeekReviewDetail } from "./reviews";

/** Every named verb the dataProvider answers. */
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
  ...jobVerbs,
  ...integrationVerbs,
  ...boardVerbs,
  ...downloadVerbs,
  ...reviewVerbs,
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
