/**
 * «Revisar drive» (SPEC §2 project detail; the client detail too, decision 027): verifies the record's
 * folders and repairs any drift (missing, renamed, moved, incomplete), then says what it repaired.
 * Shown to who may update the record (administrators), as the server requires.
 */
import FactCheckIcon from "@mui/icons-material/FactCheck";
import { Button } from "@mui/material";
import { useState } from "react";
import { useCanAccess, useDataProvider, useNotify, useRecordContext, useRefresh, useTranslate } from "react-admin";
import type { SiaDataProvider } from "../../dataProvider";

export function DriveCheckButton({ resource }: { resource: "projects" | "clients" }) {
  const translate = useTranslate();
  const record = useRecordContext();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource, action: "update", record });
  const [busy, setBusy] = useState(false);
  if (!record || !canAccess) return null;
  const check = async () => {
    setBusy(true);
    try {
      const { summary } = await dataProvider.checkDrive(resource, record.id);
      notify(summary, { type: "success", multiLine: true });
      refresh();
    } catch (error) {
      notify((error as Error).message, { type: "error" });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" startIcon={<FactCheckIcon />} onClick={check} disabled={busy}>
      {translate("sia.drive.check")}
    </Button>
  );
}
