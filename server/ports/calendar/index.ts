import type { Config } from "../../config";
import { LocalCalendar } from "./local";
import type { CalendarPort } from "./port";
import type { CalendarReader } from "./reader";

export { toIcs } from "./ics";
export * from "./port";
export * from "./reader";

export function createCalendar(config: Config): CalendarPort {
  switch (config.CALENDAR_ADAPTER) {
    case "local":
      return new LocalCalendar(config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : "sia.local");
  }
}

/**
 * The provider calendar the timesheet import reads with the user's token (SPEC §7 "Calendar service").
 * null while no provider adapter is configured: the local install imports .ics files only.
 */
export function createCalendarReader(config: Config): CalendarReader | null {
  switch (config.CALENDAR_ADAPTER) {
    case "local":
      return null;
  }
}
