/** React-Admin under /app: resources at SPEC §2's paths, the app's own pages, Spanish, role-aware. */
import { type ComponentType, lazy, Suspense } from "react";
import { Admin, CustomRoutes, Loading } from "react-admin";
import { Navigate, Route } from "react-router-dom";
import { authProvider } from "../authProvider";
import { CALENDAR_IMPORT_PARAM, PAGE_PATHS } from "../core/resources";
import { dataProvider } from "../dataProvider";
import { queryClient } from "../queryClient";
import { activityTypeCatalogs } from "./activity_type_catalogs";
import { appLicenses } from "./app_licenses";
import { appSettings } from "./app_settings";
import { assignments } from "./assignments";
import { clientGroups } from "./client_groups";
import { clients } from "./clients";
import { resourceRoutes } from "./common/resourceRoutes";
import { employeePositions } from "./employee_positions";
import { employees } from "./employees";
import { holydays } from "./holydays";
import { i18nProvider } from "./i18n";
import { SiaLayout } from "./layout/SiaLayout";
import { CatchAll } from "./pages/NotFoundPage";
import { products } from "./products";
import { projectTypes } from "./project_types";
import { projects } from "./projects";
import { prospects } from "./prospects";
import { quotations } from "./quotations";
import { theme } from "./theme";
import { users } from "./users";
import { workspaces } from "./workspaces";

// The timesheet is code-split: admin lists never load FullCalendar.
const ActivitiesPage = lazy(() => import("../timesheet/ActivitiesPage"));
const GridPage = lazy(() => import("../timesheet/grid/GridPage"));
// The dashboards too: only their screens load the chart library.
const DashboardPage = lazy(() => import("./dashboards/DashboardPage"));
// Pages off the daily path: the changelog's Markdown reader, the outbox and the report screen.
const ChangelogPage = lazy(() => import("./pages/ChangelogPage").then((m) => ({ default: m.ChangelogPage })));
const OutboxPage = lazy(() => import("./pages/OutboxPage").then((m) => ({ default: m.OutboxPage })));
const IntegrationsPage = lazy(() => import("./pages/IntegrationsPage").then((m) => ({ default: m.IntegrationsPage })));
const NoticesPage = lazy(() => import("./pages/NoticesPage").then((m) => ({ default: m.NoticesPage })));
const ReportingPage = lazy(() => import("./reporting/ReportingPage"));
const CapacityPage = lazy(() => import("./capacity/CapacityPage").then((m) => ({ default: m.CapacityPage })));
const WeekReviewsPage = lazy(() => import("./week_reviews/WeekReviewsPage").then((m) => ({ default: m.WeekReviewsPage })));
// A project's invoices, like every resource's screens (src/admin/common/resourceRoutes.tsx).
const ProjectInvoicesRoutes = lazy(() => import("./invoices/InvoiceScreens").then((m) => ({ default: m.ProjectInvoicesRoutes })));
const page = (Page: ComponentType) => (
  <Suspense fallback={<Loading />}>
    <Page />
  </Suspense>
);

const Home = () => <Navigate to={PAGE_PATHS.activities} replace />;

export function AdminApp() {
  return (
    <Admin
      basename="/app"
      dataProvider={dataProvider}
      queryClient={queryClient}
      authProvider={authProvider}
      i18nProvider={i18nProvider}
      theme={theme}
      layout={SiaLayout}
      loginPage={false}
      dashboard={Home}
      catchAll={CatchAll}
      requireAuth
      disableTelemetry
    >
      {resourceRoutes("clients", clients)}
      {resourceRoutes("prospects", prospects)}
      {resourceRoutes("client_group", clientGroups)}
      {resourceRoutes("quotations", quotations)}
      {resourceRoutes("projects", {
        ...projects,
        children: <Route path=":projectId/invoices/*" element={page(ProjectInvoicesRoutes)} />,
      })}
      {resourceRoutes("employees", employees)}
      {resourceRoutes("users", users)}
      {resourceRoutes("workspaces", workspaces)}
      {resourceRoutes("assignments", assignments)}
      {resourceRoutes("employee_positions", employeePositions)}
      {resourceRoutes("holydays", holydays)}
      {resourceRoutes("productCatalogs", products)}
      {resourceRoutes("app_licenses", appLicenses)}
      {resourceRoutes("project_types", projectTypes)}
      {resourceRoutes("activity_type_catalogs", activityTypeCatalogs)}
      {resourceRoutes("app_settings", appSettings)}
      <CustomRoutes>
        <Route
          path="/activities"
          element={
            <Suspense fallback={<Loading />}>
              <ActivitiesPage />
            </Suspense>
          }
        />
        <Route path="/activities/grid" element={page(GridPage)} />
        <Route
          path="/dashboard"
          element={
            <Suspense fallback={<Loading />}>
              <DashboardPage />
            </Suspense>
          }
        />
        <Route
          path="/showGoogleCalendar"
          element={<Navigate to={`${PAGE_PATHS.activities}?${CALENDAR_IMPORT_PARAM}=calendario`} replace />}
        />
        <Route path="/changeLogSia" element={page(ChangelogPage)} />
        <Route path="/reporting/list" element={page(ReportingPage)} />
        <Route path="/capacity" element={page(CapacityPage)} />
        <Route path="/week_reviews" element={page(WeekReviewsPage)} />
        <Route path="/outbox" element={page(OutboxPage)} />
        <Route path="/integrations" element={page(IntegrationsPage)} />
        <Route path="/notices" element={page(NoticesPage)} />
      </CustomRoutes>
    </Admin>
  );
}
