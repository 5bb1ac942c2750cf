import type { Integration } from "../integration";

/**
 * The calendar port: events of quotations (demos, meetings with the prospect). The local default keeps
 * the event with the quotation (quotations.event) and offers it as an .ics invitation
 * (GET /api/v1/quotations/:id/invitation.ics); the Google Calendar adapter comes with the integrations
 * issue and answers the provider's event id and link.
 */
export interface CalendarEventInput {
  summary: string;
  description?: string | null;
  startsAt: Date;
  endsAt: Date;
  attendees: string[];
  organizerEmail?: string | null;
}

export interface CalendarEventRef {
  /** The provider's id (the local adapter's is the iCalendar UID). */
  id: string;
  /** Where the event is opened; null when the caller links its own invitation. */
  url: string | null;
}

export interface CalendarPort extends Integration {
  createEvent(event: CalendarEventInput): Promise<CalendarEventRef>;
  updateEvent(id: string, event: CalendarEventInput): Promise<CalendarEventRef>;
  deleteEvent(id: string): Promise<void>;
}
