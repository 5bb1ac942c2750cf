/** The timesheet's imports (calendar .ics / Google, CSV): what their routes answer. Nothing is saved by them. */
import { z } from "zod";
import { localEventAnswer } from "../localEvent";

/** GET calendar_imports/sources: whether the server can read Google Calendar. */
export const importSourcesAnswer = z.object({ google: z.boolean() });

/** POST calendar_imports: the week's events, and what could not be read (in Spanish). */
export const calendarImportAnswer = z.object({ events: z.array(localEventAnswer), warnings: z.array(z.string()) });

/** PUT activities/import_activities_csv: the CSV's rows as local events. */
export const csvImportAnswer = z.object({ import_activities: z.array(localEventAnswer) });
