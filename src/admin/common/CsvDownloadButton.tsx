/** Downloads the server's CSV of the current list (same filters and search), as the product's one CSV writer makes it. */
import DownloadIcon from "@mui/icons-material/Download";
import { Button, CircularProgress } from "@mui/material";
import { useState } from "react";
import { useCanAccess, useDataProvider, useListContext, useNotify, useResourceContext, useTranslate } from "react-admin";
import type { SiaDataProvider } from "../../dataProvider";

/** `label` is a catalogue key (a plain text shows as it is). */
export function CsvDownloadButton({ label = "sia.common.export_csv" }: { label?: string }) {
  const translate = useTranslate();
  const resource = useResourceContext() as string;
  const { filterValues, sort } = useListContext();
  const notify = useNotify();
  const dataProvider = useDataProvider<SiaDataProvider>();
  const [busy, setBusy] = useState(false);
  // Offered only to whom the matrix grants the export (the server answers 403 to the others).
  const { canAccess } = useCanAccess({ resource, action: "export" });
  if (!canAccess) return null;
  return (
    <Button
      size="small"
      startIcon={busy ? <CircularProgress size={16} /> : <DownloadIcon />}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await dataProvider.downloadListCsv(resource, { filter: filterValues, sort });
        } catch (error) {
          notify((error as Error).message, { type: "error" });
        } finally {
          setBusy(false);
        }
      }}
    >
      {translate(label, { _: label })}
    </Button>
  );
}
