/** Downloads the server's CSV of the current list (same filters and search), as the product's one CSV writer makes it. */
import DownloadIcon from "@mui/icons-material/Download";
import { Button, CircularProgress } from "@mui/material";
import { useState } from "react";
import { useCanAccess, useListContext, useNotify, useResourceContext, useTranslate } from "react-admin";
import { listQuery } from "../../dataProvider";
import { apiFetch } from "../../dataProvider/http";
import { saveBlob } from "../../dataProvider/saveBlob";

export async function downloadFile(path: string, query: Record<string, unknown>, fallbackName: string, timeoutMs = 300_000) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await apiFetch<Response>(path, { query: query as never, raw: true, signal: controller.signal });
    const blob = await response.blob();
    const name = response.headers.get("content-disposition")?.match(/filename="([^"]+)"/)?.[1] ?? fallbackName;
    saveBlob(blob, name);
  } finally {
    clearTimeout(timer);
  }
}

/** `label` is a catalogue key (a plain text shows as it is). */
export function CsvDownloadButton({ label = "sia.common.export_csv" }: { label?: string }) {
  const translate = useTranslate();
  const resource = useResourceContext() as string;
  const { filterValues, sort } = useListContext();
  const notify = useNotify();
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
          await downloadFile(`${resource}.csv`, listQuery({ filter: filterValues, sort }), `${resource}.csv`);
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
