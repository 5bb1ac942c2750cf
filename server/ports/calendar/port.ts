import type { Integration } from "../integration";

/**
 * The calendar port: events of quotations (demos, meetings with the prospect). The local default keeps
 * the event with the quotation (quotations.event) and offers it as an .ics invitation
 * (GET /api/v1/quotations/:id/invitation.ics); the Google Calendar adapter (server/ports/calendar/google.ts)
 * writes it in the organizer's calendar with the organizer's token (`account`) and answers the
 * provider's event id and link.
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

/** Whose calendar holds the event: the organizer's stored token, and where a refreshed one is kept. */
export interface CalendarAccount {
  token: string | null;
  saveToken?: (token: string) => Promise<void>;
}

/** The provider refused or failed the event: a Spanish reason the caller answers as a 422. */
export class CalendarError extends Error {}

export interface CalendarPort extends Integration {
  /** Does the adapter write in the organizer's own calendar (and so need `account`)? */
  readonly usesAccount?: boolean;
  createEvent(event: CalendarEventInput, account?: CalendarAccount): Promise<CalendarEventRef>;
  updateEvent(id: string, event: CalendarEventInput, account?: CalendarAccount): Promise<CalendarEventRef>;
  deleteEvent(id: string, account?: CalendarAccount): Promise<void>;
}
