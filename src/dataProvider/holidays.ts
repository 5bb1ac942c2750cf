/** Holidays (SPEC §7, holydays extras): the days of a range, and the CSV import with every bad row named. */
import type { z } from "zod";
import { messages } from "../core/messages";
import type { HolidayImportResult, holydayDay } from "../core/schemas/holyday";
import { apiFetch, errorFor, messagesOf, payloadOf, request, validationFromBody } from "./http";

export type { HolidayImportResult };

/** A refused holiday file: the base message and every bad row the server named (fila N: …). */
export class HolidayImportError extends Error {
  constructor(
    message: string,
    readonly rows: string[],
  ) {
    super(message);
  }
}

export const holidayVerbs = {
  /**
   * PUT holydays/import_holydays (multipart `file`). A 422 keeps every row the server listed
   * (invalid_dates, invalid_names) instead of the first one only.
   */
  importHolidays: async (file: File): Promise<HolidayImportResult> => {
    const body = new FormData();
    body.append("file", file, file.name);
    const response = await request("holydays/import_holydays", { method: "PUT", body });
    const payload = await payloadOf(response);
    if (response.ok) return payload as HolidayImportResult;
    if (response.status === 422) {
      const errors = ((payload as { errors?: Record<string, unknown> }).errors ?? {}) as Record<string, unknown>;
      const rows = Object.entries(errors)
        .filter(([field]) => field !== "base")
        .flatMap(([, value]) => messagesOf(value));
      const { base } = validationFromBody(payload);
      throw new HolidayImportError(base[0] ?? (rows.length ? messages.holydaysRowsInvalid : messages.invalidValue), rows);
    }
    throw errorFor(response.status, payload);
  },
  /** GET holydays/holydays_by_date?from&to (inclusive local dates). */
  holydaysByDate: (from: string, to: string, signal?: AbortSignal) =>
    apiFetch<{ holydays: z.infer<typeof holydayDay>[] }>("holydays/holydays_by_date", {
      query: { from, to },
      signal,
    }).then((r) => r.holydays),
};
