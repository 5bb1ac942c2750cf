/**
 * The one HTTP client of the browser: /api/v1 calls with the session cookie, failures rejected as
 * react-admin HttpErrors carrying SPEC §8's messages.
 */
import { HttpError } from "react-admin";
import { messages, timesheetMessages } from "../core/messages";
import { SESSION_STAMP_HEADER } from "../core/session";
import { emit } from "./events";
import { fieldLabel, resourceOfPath } from "./fieldLabels";

export const API_ROOT = "/api/v1";

export type Query = Record<string, string | number | boolean | null | undefined | unknown[]>;

export interface ApiOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
  /** Answer the raw Response (downloads). */
  raw?: boolean;
  /** Extra request headers (If-Match on updates). */
  headers?: Record<string, string>;
  /**
   * Whether a 422's field errors are toasted one by one (forms). A list read says false: its refused
   * params are dropped and told once by the list itself (src/admin/common/ListRecovery.tsx).
   */
  fieldToasts?: boolean;
}

export function toQueryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === "") continue;
    params.append(key, Array.isArray(value) ? JSON.stringify(value) : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Every message of one entry of a refusal's `errors` (a list, or a single message). */
export const messagesOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : [String(value)]);

/**
 * 422 body → what react-admin's forms show inline ({field: first message}) and the toasts, which name
 * each field in Spanish (the label of `resource`'s form when the call's resource is known).
 */
export function validationFromBody(body: unknown, resource?: string) {
  const errors = ((body as { errors?: Record<string, unknown> })?.errors ?? {}) as Record<string, unknown>;
  const inline: Record<string, string> = {};
  const fieldToasts: string[] = [];
  const base: string[] = [];
  for (const [field, value] of Object.entries(errors)) {
    const first = Array.isArray(value) ? String(value[0] ?? "") : typeof value === "string" ? value : "";
    if (field === "base") {
      base.push(...(Array.isArray(value) ? value.map(String) : [first]));
      continue;
    }
    inline[field.split(".")[0]] = first;
    fieldToasts.push(`${messages.paramError(fieldLabel(field, resource))}: ${first}`);
  }
  return { inline, fieldToasts, base };
}

/**
 * The one place the browser calls /api/v1: headers, the session cookie, the session stamp the answer
 * carries, and an unreachable server as SPEC §8's "status -1". Answers the Response whatever its status:
 * apiFetch maps failures; the calls that keep every line of a refusal (imports) read the body themselves.
 */
export async function request(path: string, options: Omit<ApiOptions, "raw"> = {}): Promise<Response> {
  const { method = "GET", query, body, signal } = options;
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(`${API_ROOT}/${path}${toQueryString(query)}`, {
      method,
      signal,
      credentials: "same-origin",
      headers: {
        Accept: "application/json",
        ...(body !== undefined && !isForm ? { "Content-Type": "application/json" } : {}),
        ...options.headers,
      },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
    });
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    // SPEC §8 "status -1": the server could not be reached; a browser that knows it is offline says so.
    const offline = typeof navigator !== "undefined" && navigator.onLine === false;
    throw new HttpError(offline ? timesheetMessages.offline : messages.unexpected, -1, {});
  }
  const stamp = response.headers.get(SESSION_STAMP_HEADER);
  if (stamp) emit("sia:session-stamp", { stamp });
  return response;
}

/** A failed answer's JSON body ({} when it has none). */
export const payloadOf = (response: Response): Promise<unknown> => response.json().catch(() => ({}));

export async function apiFetch<T = unknown>(path: string, options: ApiOptions = {}): Promise<T> {
  const response = await request(path, options);
  if (response.ok) {
    if (options.raw) return response as T;
    return (response.status === 204 ? {} : await response.json()) as T;
  }
  throw errorFor(response.status, await payloadOf(response), resourceOfPath(path), options.fieldToasts);
}

/** A failed call as an HttpError; record screens send a 404 to the /404 page (src/admin/common/RecordError.tsx). */
export function errorFor(status: number, payload: unknown, resource?: string, fieldToasts = true) {
  const error = (payload as { error?: string })?.error;
  switch (status) {
    case 401:
      return new HttpError(messages.unauthenticated, 401, payload);
    case 403:
      return new HttpError(messages.forbidden, 403, payload);
    case 404:
      return new HttpError(error ?? messages.notFound, 404, payload);
    case 422: {
      const { inline, fieldToasts: toasts, base } = validationFromBody(payload, resource);
      if (toasts.length && fieldToasts) emit("sia:field-errors", { messages: toasts });
      const message = base[0] ?? toasts[0] ?? messages.invalidValue;
      // body.errors holds only field errors, so forms show them inline; base errors travel as the message.
      return new HttpError(message, 422, Object.keys(inline).length ? { errors: inline } : {});
    }
    default:
      return new HttpError(error ?? messages.unexpected, status, payload);
  }
}
