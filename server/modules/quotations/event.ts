/** A quotation's event as stored in quotations.event (the calendar's shape: start/end dateTime). */
import { QUOTATION_EVENT_DEFAULT_MINUTES } from "../../../src/core/constants";
import { quotationInvitationPath } from "../../../src/core/resources";

export interface EventInput {
  starts_at: string;
  duration_minutes?: number;
  summary?: string | null;
  description?: string | null;
  attendees?: string[];
}

export interface StoredEvent {
  summary: string;
  description: string | null;
  start: { dateTime: string };
  end: { dateTime: string };
  duration_minutes: number;
  attendees: Array<{ email: string }>;
  organizer: { email: string; name: string } | null;
  sequence: number;
}

export const invitationPath = quotationInvitationPath;

export function eventForStorage(
  input: EventInput,
  defaults: { summary: string; organizer: { email: string; name: string } | null; sequence: number },
): StoredEvent {
  const minutes = input.duration_minutes ?? QUOTATION_EVENT_DEFAULT_MINUTES;
  const start = new Date(input.starts_at);
  return {
    summary: input.summary ?? defaults.summary,
    description: input.description ?? null,
    start: { dateTime: start.toISOString() },
    end: { dateTime: new Date(start.getTime() + minutes * 60_000).toISOString() },
    duration_minutes: minutes,
    attendees: [...new Set(input.attendees ?? [])].map((email) => ({ email })),
    organizer: defaults.organizer,
    sequence: defaults.sequence,
  };
}

/** Start and end of a stored event (ours or one imported from the calendar), or null. */
export function eventTimes(event: unknown): { startsAt: Date; endsAt: Date } | null {
  if (!event || typeof event !== "object") return null;
  const e = event as { start?: { dateTime?: string }; end?: { dateTime?: string } };
  const startsAt = new Date(e.start?.dateTime ?? "");
  if (Number.isNaN(startsAt.getTime())) return null;
  const end = new Date(e.end?.dateTime ?? "");
  const endsAt = Number.isNaN(end.getTime()) ? new Date(startsAt.getTime() + QUOTATION_EVENT_DEFAULT_MINUTES * 60_000) : end;
  return { startsAt, endsAt };
}
