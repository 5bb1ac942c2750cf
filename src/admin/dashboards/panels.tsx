/**
 * The dashboards' panels on other screens, code-split: the project and client detail screens import
 * these wrappers, and the chart library loads only when a panel shows.
 */
import { Box, LinearProgress } from "@mui/material";
import { lazy, Suspense } from "react";
import { useRecordContext } from "react-admin";

const ProjectHours = lazy(() => import("./ProjectHoursPanel"));
const ClientSupport = lazy(() => import("./ClientSupportPanel"));

/** "Horas estimadas vs. registradas" of the project in context. */
export function ProjectHoursPanel() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Suspense fallback={<LinearProgress />}>
      <ProjectHours projectId={record.id} />
    </Suspense>
  );
}

/** "Horas de soporte del año" of the client in context. */
export function ClientSupportPanel() {
  const record = useRecordContext();
  if (!record) return null;
  return (
    <Box sx={{ px: 2, pb: 1 }}>
      <Suspense fallback={<LinearProgress />}>
        <ClientSupport clientId={record.id} />
      </Suspense>
    </Box>
  );
}
