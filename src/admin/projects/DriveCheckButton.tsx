/** "Revisar drive" (SPEC §2 project detail): verifies the project's folder and its 9 numbered folders, repairing what is missing. */
import FactCheckIcon from "@mui/icons-material/FactCheck";
import { Button } from "@mui/material";
import { useState } from "react";
import { useCanAccess, useDataProvider, useNotify, useRecordContext, useRefresh } from "react-admin";
import type { SiaDataProvider } from "../../dataProvider";

export function DriveCheckButton() {
  const project = useRecordContext();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: "projects", action: "update", record: project });
  const [busy, setBusy] = useState(false);
  if (!project || !canAccess) return null;
  const check = async () => {
    setBusy(true);
    try {
      const { message, created } = await dataProvider.checkProjectDrive(project.id);
      notify(created.length ? `${message}: se crearon ${created.join(", ")}` : message, { type: "success" });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: "error" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" startIcon={<FactCheckIcon />} onClick={check} disabled={busy}>
      Revisar drive
    </Button>
  );
}
