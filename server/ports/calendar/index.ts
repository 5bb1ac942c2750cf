import type { Config } from "../../config";
import { LocalCalendar } from "./local";
import type { CalendarPort } from "./port";

export { toIcs } from "./ics";
export * from "./port";

export function createCalendar(config: Config): CalendarPort {
  switch (config.CALENDAR_ADAPTER) {
    case "local":
      return new LocalCalendar(config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : "sia.local");
  }
}
