/**
 * Google Calendar (CALENDAR_ADAPTER=google), through the official client (`@googleapis/calendar`, API v3)
 * and google-auth-library's OAuth2Client with the firm's OAuth client (GOOGLE_CLIENT_ID/SECRET):
 * - GoogleCalendarReader: the week import reads the user's primary calendar (events.list with timeMin,
 *   timeMax, singleEvents=true, following nextPageToken) with the user's stored token;
 * - GoogleCalendar: quotation events are created, patched and deleted in the organizer's primary calendar
 *   (attendees invited by Google: sendUpdates=all), answering Google's event id and htmlLink.
 *
 * The stored token (users.cloud_token_encrypted, what save_cloud_token or «Conectar Google Calendar» keeps)
 * is either a JSON object {access_token?, refresh_token?, expiry_date?} or a bare string: a refresh token,
 * or an access token when it has Google's access-token prefix `ya29.` (what older clients saved). The
 * client refreshes an expired access token with the refresh token; the new credentials are handed to
 * `saveToken` so the caller stores them (encrypted) and the next call does not refresh again.
 * A refresh Google refuses (invalid_grant: revoked or expired) or an access token that no longer works
 * and cannot be refreshed is CalendarTokenExpired («Google Token caducado»); any other failure is a plain
 * error (the import answers «Error al obtener eventos…»).
 */
import { calendar_v3 } from "@googleapis/calendar";
import { OAuth2Client } from "google-auth-library";
import { calendarMessages, importMessages } from "../../../src/core/messages";
import { BUSINESS_TIME_ZONE, wallTimeInstant, zonedInstant } from "../../../src/core/week";
import { GOOGLE_TIMEOUT_MS, GOOGLE_TOKEN_URL, redirectTokenRequests } from "../documents/google";
import { type CalendarAccount, CalendarError, type CalendarEventInput, type CalendarEventRef, type CalendarPort } from "./port";
import {
  type CalendarInstance,
  type CalendarRange,
  type CalendarReader,
  CalendarTokenExpired,
  ICS_LIMITS,
  IcsError,
} from "./reader";
import { ianaZoneOf } from "./timezones";

export const CALENDAR_SCOPE = "https://www.googleapis.com/auth/calendar";
/** Events per page asked of Google (its maximum is 2500; 250 is its default). */
export const EVENTS_PAGE_SIZE = 250;
/** A week never needs more pages than this; a provider that keeps paging is cut off. */
const MAX_PAGES = 100;

export interface GoogleCredentials {
  access_token?: string | null;
  refresh_token?: string | null;
  expiry_date?: number | null;
}

/** The stored token as credentials (see the header for the shapes accepted). */
export function parseStoredToken(token: string): GoogleCredentials {
  const text = token.trim();
  if (text.startsWith("{")) {
    try {
      const parsed = JSON.parse(text) as Record<string, unknown>;
      const str = (v: unknown) => (typeof v === "string" && v ? v : null);
      return {
        access_token: str(parsed.access_token),
        refresh_token: str(parsed.refresh_token),
        expiry_date: typeof parsed.expiry_date === "number" ? parsed.expiry_date : null,
      };
    } catch {
      return {};
    }
  }
  return text.startsWith("ya29.") ? { access_token: text } : { refresh_token: text };
}

/** Credentials as they are stored (JSON, only the three fields). */
export function storedToken(credentials: GoogleCredentials): string {
  return JSON.stringify({
    access_token: credentials.access_token ?? null,
    refresh_token: credentials.refresh_token ?? null,
    expiry_date: credentials.expiry_date ?? null,
  });
}

export interface GoogleCalendarOptions {
  clientId: string;
  clientSecret: string;
  /** Base of the APIs (default https://www.googleapis.com/). */
  rootUrl?: string;
  /** The OAuth token endpoint (default https://oauth2.googleapis.com/token). */
  tokenUrl?: string;
}

function failureOf(error: unknown): { status: number | null; grantError: string | null } {
  const e = error as { response?: { status?: number; data?: { error?: unknown } } };
  const status = e?.response?.status ?? null;
  const grant = e?.response?.data?.error;
  return { status, grantError: typeof grant === "string" ? grant : null };
}

/** What both classes share: an OAuth2Client per call with the user's credentials, and the API. */
class GoogleCalendarClient {
  constructor(protected readonly options: GoogleCalendarOptions) {}

  protected oauth(credentials: GoogleCredentials = {}): OAuth2Client {
    const tokenUrl = this.options.tokenUrl ?? GOOGLE_TOKEN_URL;
    const auth = new OAuth2Client({
      clientId: this.options.clientId,
      clientSecret: this.options.clientSecret,
      endpoints: { oauth2TokenUrl: tokenUrl },
      // A 401 with an access token not yet past its expiry_date (revoked, clock skew): refresh once and retry.
      forceRefreshOnFailure: true,
    });
    redirectTokenRequests(auth, tokenUrl);
    auth.setCredentials(credentials);
    return auth;
  }

  /** The API with the account's token; refreshed credentials go to saveToken (awaited before answering). */
  protected async withAccount<T>(
    token: string,
    saveToken: ((token: string) => Promise<void>) | undefined,
    run: (api: calendar_v3.Calendar) => Promise<T>,
  ): Promise<T> {
    const credentials = parseStoredToken(token);
    if (!credentials.access_token && !credentials.refresh_token) throw new CalendarTokenExpired(calendarMessages.tokenExpired);
    const auth = this.oauth(credentials);
    let refreshed: GoogleCredentials | null = null;
    auth.on("tokens", (tokens) => {
      refreshed = {
        access_token: tokens.access_token ?? null,
        refresh_token: tokens.refresh_token ?? credentials.refresh_token ?? null,
        expiry_date: tokens.expiry_date ?? null,
      };
    });
    const api = new calendar_v3.Calendar({
      // googleapis-common pins its own patch release of google-auth-library: same API, other type identity.
      auth: auth as unknown as calendar_v3.Options["auth"],
      rootUrl: this.options.rootUrl,
      retry: false,
      timeout: GOOGLE_TIMEOUT_MS,
    });
    try {
      return await run(api);
    } catch (error) {
      const { status, grantError } = failureOf(error);
      const message = error instanceof Error ? error.message : "";
      if (grantError === "invalid_grant" || status === 401 || /No refresh token/i.test(message))
        throw new CalendarTokenExpired(calendarMessages.tokenExpired);
      throw error;
    } finally {
      const fresh = refreshed as GoogleCredentials | null;
      if (fresh && saveToken) await saveToken(storedToken(fresh)).catch(() => undefined);
    }
  }

  /**
   * The OAuth client answers Google: a refresh with a made-up refresh token must be refused as
   * invalid_grant (the client is known), not as invalid_client.
   */
  async check(): Promise<void> {
    const auth = this.oauth({ refresh_token: "sia-comprobacion-de-la-integracion" });
    try {
      await auth.getAccessToken();
    } catch (error) {
      const { grantError } = failureOf(error);
      if (grantError === "invalid_grant") return;
      if (grantError === "invalid_client" || grantError === "unauthorized_client")
        throw new Error("Google no reconoce el cliente OAuth (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET)");
      throw new Error(`Google no responde: ${error instanceof Error ? error.message : String(error)}`);
    }
    throw new Error("Google aceptó un token de prueba: revise GOOGLE_OAUTH_TOKEN_URL");
  }
}

/**
 * A Google event time → instant, by the .ics reader's rules (server/ports/calendar/reader.ts): a
 * dateTime with its offset is that instant; one without (floating) is wall-clock time in its timeZone,
 * named as the reader names zones (IANA, Windows, vendor-prefixed), else in the firm's zone; all-day
 * dates are midnight in the firm's zone.
 */
function instantOf(time: calendar_v3.Schema$EventDateTime | undefined): Date | null {
  if (time?.dateTime) {
    const floating = time.dateTime.match(/^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?$/);
    if (floating) {
      const [, y, mo, d, h, mi, se] = floating.map(Number);
      const wall = Date.UTC(y, mo - 1, d, h, mi, se || 0);
      return wallTimeInstant(wall, ianaZoneOf(time.timeZone) ?? BUSINESS_TIME_ZONE);
    }
    const d = new Date(time.dateTime);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  if (time?.date && /^\d{4}-\d{2}-\d{2}$/.test(time.date)) return zonedInstant(time.date, 0);
  return null;
}

/** One events.list item as a CalendarInstance (not filtered: the import rules do that), or null. */
export function instanceOfGoogleEvent(item: calendar_v3.Schema$Event): CalendarInstance | null {
  const start = instantOf(item.start);
  if (!item.id || !start) return null;
  let end = instantOf(item.end) ?? start;
  if (end.getTime() < start.getTime()) end = start;
  const video = item.conferenceData?.entryPoints?.find((p) => p.entryPointType === "video")?.uri ?? null;
  return {
    uid: item.recurringEventId ?? item.id,
    // With singleEvents=true an instance's id is already `<series>_<original start>`, stable when moved.
    instanceId: item.id,
    seriesId: item.recurringEventId ?? null,
    summary: item.summary ?? "",
    start,
    end,
    allDay: Boolean(item.start?.date && !item.start?.dateTime),
    cancelled: item.status === "cancelled",
    transparent: item.transparency === "transparent",
    organizer: item.organizer?.email ?? null,
    hangoutLink: item.hangoutLink ?? video,
  };
}

export class GoogleCalendarReader extends GoogleCalendarClient implements CalendarReader {
  readonly kind = "google";

  authorizationUrl(redirectUri: string, state: string, loginHint?: string): string {
    return this.oauth().generateAuthUrl({
      access_type: "offline",
      // consent: Google hands a refresh token again even to a user who connected before.
      prompt: "consent",
      scope: [CALENDAR_SCOPE],
      include_granted_scopes: true,
      state,
      redirect_uri: redirectUri,
      login_hint: loginHint,
    });
  }

  async exchangeCode(code: string, redirectUri: string): Promise<string> {
    const { tokens } = await this.oauth().getToken({ code, redirect_uri: redirectUri });
    if (!tokens.access_token && !tokens.refresh_token) throw new Error("Google no entregó un token");
    return storedToken(tokens);
  }

  async listInstances(
    token: string,
    range: CalendarRange,
    saveToken?: (token: string) => Promise<void>,
  ): Promise<CalendarInstance[]> {
    return this.withAccount(token, saveToken, async (api) => {
      const out: CalendarInstance[] = [];
      let pageToken: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const { data } = await api.events.list({
          calendarId: "primary",
          timeMin: range.start.toISOString(),
          timeMax: range.end.toISOString(),
          singleEvents: true,
          maxResults: EVENTS_PAGE_SIZE,
          pageToken,
        });
        for (const item of data.items ?? []) {
          const instance = instanceOfGoogleEvent(item);
          if (instance) out.push(instance);
        }
        // The same cap as an uploaded file's week.
        if (out.length > ICS_LIMITS.maxInstances) throw new IcsError(importMessages.icsTooManyInstances(ICS_LIMITS.maxInstances));
        pageToken = data.nextPageToken ?? undefined;
        if (!pageToken) return out;
      }
      throw new Error("Google Calendar no terminó de paginar los eventos");
    });
  }
}

export class GoogleCalendar extends GoogleCalendarClient implements CalendarPort {
  readonly kind = "google";
  readonly usesAccount = true;

  private body(event: CalendarEventInput): calendar_v3.Schema$Event {
    return {
      summary: event.summary,
      description: event.description ?? undefined,
      start: { dateTime: event.startsAt.toISOString(), timeZone: BUSINESS_TIME_ZONE },
      end: { dateTime: event.endsAt.toISOString(), timeZone: BUSINESS_TIME_ZONE },
      attendees: event.attendees.map((email) => ({ email })),
    };
  }

  /** The organizer's token, or a Spanish CalendarError (the quotation answers it as a 422). */
  private tokenOf(account: CalendarAccount | undefined): string {
    if (!account?.token) throw new CalendarError(calendarMessages.organizerNotConnected);
    return account.token;
  }

  private async run<T>(account: CalendarAccount | undefined, work: (api: calendar_v3.Calendar) => Promise<T>): Promise<T> {
    try {
      return await this.withAccount(this.tokenOf(account), account?.saveToken, work);
    } catch (error) {
      if (error instanceof CalendarError) throw error;
      if (error instanceof CalendarTokenExpired) throw new CalendarError(calendarMessages.tokenExpired);
      throw new CalendarError(calendarMessages.eventFailed);
    }
  }

  async createEvent(event: CalendarEventInput, account?: CalendarAccount): Promise<CalendarEventRef> {
    const data = await this.run(
      account,
      async (api) => (await api.events.insert({ calendarId: "primary", sendUpdates: "all", requestBody: this.body(event) })).data,
    );
    return { id: data.id as string, url: data.htmlLink ?? null };
  }

  async updateEvent(id: string, event: CalendarEventInput, account?: CalendarAccount): Promise<CalendarEventRef> {
    const data = await this.run(
      account,
      async (api) =>
        (await api.events.patch({ calendarId: "primary", eventId: id, sendUpdates: "all", requestBody: this.body(event) })).data,
    );
    return { id: data.id as string, url: data.htmlLink ?? null };
  }

  async deleteEvent(id: string, account?: CalendarAccount): Promise<void> {
    await this.run(account, async (api) => {
      try {
        await api.events.delete({ calendarId: "primary", eventId: id, sendUpdates: "all" });
      } catch (error) {
        // Already gone (deleted in Google: 410, or never there: 404): nothing left to delete.
        const { status } = failureOf(error);
        if (status === 404 || status === 410) return;
        throw error;
      }
    });
  }
}
