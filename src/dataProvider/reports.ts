/** The reporting screen's download (docs/reports.md). */
import { downloadCsv } from "./downloads";
import type { Query } from "./http";

export const reportVerbs = {
  /**
   * Saves GET activities/reporting_activities.csv, read as the server streams it: `onProgress` receives the
   * bytes received so far (the screen's progress indicator). It waits as long as the server writes.
   * Validation failures reject as HttpError (422).
   */
  downloadReportCsv: (query: Query, onProgress?: (bytes: number) => void, signal?: AbortSignal) =>
    downloadCsv("activities/reporting_activities.csv", query, {
      onProgress,
      signal,
      timeoutMs: null,
      fallbackName: "reporte_actividades.csv",
    }),
};
