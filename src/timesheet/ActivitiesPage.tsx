/**
 * /app/activities, the default page. The weekly calendar arrives with the timesheet issue; until then the
 * page says so, and tells a user with no employee record whom to ask (SPEC §6).
 */
import { Alert } from "@mui/material";
import { usePermissions } from "react-admin";
import { messages } from "../core/messages";
import type { SessionUser } from "../core/session";
import { UnderConstruction } from "../admin/pages/UnderConstruction";

export function ActivitiesPage() {
  const { permissions } = usePermissions<SessionUser | null>();
  return (
    <>
      {permissions && !permissions.employee && (
        <Alert severity="warning" sx={{ mt: 2 }} data-testid="no-employee">
          {messages.noEmployee}
        </Alert>
      )}
      <UnderConstruction title="Actividades de la semana" />
    </>
  );
}
