/**
 * One event of the week calendar, whichever of the two models holds it: an activity as SIA has it (saved
 * at once when changed), or an event of the draft week (kept in the draft until «Guardar semana»). The
 * calendar and its keys report each gesture once, with this; the page decides where the change goes.
 */
import type { Activity } from "../../core/activity";
import type { ShownEvent } from "./draft";

export type WeekItem = { activity: Activity; local?: undefined } | { local: ShownEvent; activity?: undefined };
