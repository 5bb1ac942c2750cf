import { randomUUID } from "node:crypto";
import type { CalendarEventInput, CalendarEventRef, CalendarPort } from "./port";

/** The local calendar: nothing leaves the server; the event is stored with its record and offered as .ics. */
export class LocalCalendar implements CalendarPort {
  readonly kind = "local";
  constructor(private readonly domain = "sia.local") {}
  async createEvent(_event: CalendarEventInput): Promise<CalendarEventRef> {
    return { id: `${randomUUID()}@${this.domain}`, url: null };
  }
  async updateEvent(id: string, _event: CalendarEventInput): Promise<CalendarEventRef> {
    return { id, url: null };
  }
  async deleteEvent(_id: string): Promise<void> {}
  /** Nothing to reach: events stay with their quotation. */
  async check(): Promise<void> {}
}
