/**
 * Every file the browser downloads from the API (the lists' CSVs, the timesheet's and the reporting
 * screen's CSVs, the holiday format, the licence's SQL script) goes through `downloadCsv`: the same call,
 * the same timeout, the same file name rule and the same progress reading.
 */
import type { SortPayload } from "react-admin";
import { HttpError } from "react-admin";
import { ACTIVITIES_CSV_TIMEOUT_MS } from "../core/constants";
import { messages } from "../core/messages";
import { listQuery } from "./base";
import { apiFetch, type Query } from "./http";

export interface DownloadOptions {
  /** Hears the bytes received so far while the server streams the file. */
  onProgress?: (bytes: number) => void;
  /** The name to save under when the answer names none. */
  fallbackName?: string;
  /** SPEC §9's CSV timeout by default; null waits as long as the server keeps writing. */
  timeoutMs?: number | null;
  signal?: AbortSignal;
}

/**
 * GET `path` with `query`, read as the server streams it, and save it as a file. Answers the name it
 * was saved under and its size. Failures reject as apiFetch's HttpErrors (a 422 keeps its field errors);
 * running out of time rejects with SPEC §8's unexpected-error message.
 */
export async function downloadCsv(
  path: string,
  query: Query = {},
  { onProgress, fallbackName, timeoutMs = ACTIVITIES_CSV_TIMEOUT_MS, signal }: DownloadOptions = {},
): Promise<{ filename: string; bytes: number }> {
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal?.addEventListener("abort", abort);
  let timedOut = false;
  const timer =
    timeoutMs === null
      ? undefined
      : setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
  try {
    const response = await apiFetch<Response>(path, { query, raw: true, signal: controller.signal });
    const disposition = response.headers.get("content-disposition") ?? "";
    const filename = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? fallbackName ?? (path.split("/").pop() || "descarga");
    const type = response.headers.get("content-type") ?? "text/csv;charset=utf-8";
    const chunks: Uint8Array[] = [];
    let bytes = 0;
    const reader = response.body?.getReader();
    if (reader) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        bytes += value.byteLength;
        onProgress?.(bytes);
      }
    }
    const blob = reader ? new Blob(chunks as BlobPart[], { type }) : await response.blob();
    saveBlob(blob, filename);
    return { filename, bytes: reader ? bytes : blob.size };
  } catch (error) {
    if (timedOut) throw new HttpError(messages.unexpected, -1, {});
    throw error;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", abort);
  }
}

/** The downloads screens ask for, as dataProvider verbs (the timesheet's and the report's are their areas'). */
export const downloadVerbs = {
  /** GET <resource>.csv with the list's filters and sort: the server's CSV of the list on screen. */
  downloadListCsv: (resource: string, params: { filter?: Record<string, unknown>; sort?: SortPayload }) =>
    downloadCsv(`${resource}.csv`, listQuery(params), { fallbackName: `${resource}.csv` }),
  /** GET app_licenses/:id/download_license_script: the SQL that installs the licence. */
  downloadLicenseScript: (id: number | string) =>
    downloadCsv(`app_licenses/${id}/download_license_script`, {}, { fallbackName: `licencia_${id}.sql` }),
  /** GET holydays/download_holydays_format: the holiday import's CSV format. */
  downloadHolidayFormat: () =>
    downloadCsv("holydays/download_holydays_format", {}, { fallbackName: "formato_dias_festivos.csv" }),
};

/** Saves a Blob as a file through a temporary link. */
function saveBlob(blob: Blob, filename: string) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
