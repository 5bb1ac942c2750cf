import type { Config } from "../../config";
import type { GoogleCalendarOptions } from "./google";
import { LocalCalendar } from "./local";
import type { CalendarPort } from "./port";
import type { CalendarReader } from "./reader";

export { toIcs } from "./ics";
export * from "./port";
export * from "./reader";

/** The OAuth client of CALENDAR_ADAPTER=google (loadConfig() refuses it without id and secret). */
export const googleCalendarOptions = (config: Config): GoogleCalendarOptions => ({
  clientId: config.GOOGLE_CLIENT_ID as string,
  clientSecret: config.GOOGLE_CLIENT_SECRET as string,
  rootUrl: config.GOOGLE_API_ROOT_URL,
  tokenUrl: config.GOOGLE_OAUTH_TOKEN_URL,
});

/** Google's client is imported only when CALENDAR_ADAPTER=google (see createDocuments). */
export async function createCalendar(config: Config): Promise<CalendarPort> {
  switch (config.CALENDAR_ADAPTER) {
    case "local":
      return new LocalCalendar(config.PUBLIC_URL ? new URL(config.PUBLIC_URL).hostname : "sia.local");
    case "google": {
      const { GoogleCalendar } = await import("./google");
      return new GoogleCalendar(googleCalendarOptions(config));
    }
  }
}

/**
 * The provider calendar the timesheet import reads with the user's token (SPEC §7 "Calendar service").
 * null while no provider adapter is configured: the local install imports .ics files only.
 */
export async function createCalendarReader(config: Config): Promise<CalendarReader | null> {
  switch (config.CALENDAR_ADAPTER) {
    case "local":
      return null;
    case "google": {
      const { GoogleCalendarReader } = await import("./google");
      return new GoogleCalendarReader(googleCalendarOptions(config));
    }
  }
}
