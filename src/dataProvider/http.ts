/**
 * The one HTTP client of the browser: /api/v1 calls with the session cookie, failures rejected as
 * react-admin HttpErrors carrying SPEC §8's messages.
 */
import { HttpError } from "react-admin";
import { messages } from "../core/messages";
import { emit } from "./events";

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

/** 422 body → what react-admin's forms show inline ({field: first message}) and the toasts. */
export function validationFromBody(body: unknown) {
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
    fieldToasts.push(`${messages.paramError(field)}: ${first}`);
  }
  return { inline, fieldToasts, base };
}

/**
 * GETs started before anyone asked (src/timesheet/early.ts starts the timesheet's while the page's code
 * still loads): the first identical GET within a few seconds takes the answer instead of asking again.
 * Any other call (a change) drops them, so nothing stale is ever served.
 */
const early = new Map<string, { response: Promise<Response>; at: number; json?: unknown }>();
const EARLY_TTL_MS = 10_000;

export function prefetch(path: string, query?: Query) {
  const url = `${API_ROOT}/${path}${toQueryString(query)}`;
  if (early.has(url)) return;
  const response = fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } });
  const entry: { response: Promise<Response>; at: number; json?: unknown } = { response, at: Date.now() };
  early.set(url, entry);
  // A successful answer is also kept read, for a screen that can draw it on its first render.
  response
    .then((r) => (r.ok ? r.clone().json() : undefined))
    .then((json) => {
      entry.json = json;
    })
    .catch(() => undefined);
}

/**
 * The early answers of some GETs, already read, when every one has come and succeeded; otherwise
 * undefined. Reading leaves them (a render may be thrown away and run again); `dropEarly` then takes
 * them once they have been shown, so each is served once.
 */
export function earlyJson(requests: { path: string; query?: Query }[]): unknown[] | undefined {
  const hits = requests.map(({ path, query }) => early.get(`${API_ROOT}/${path}${toQueryString(query)}`));
  if (hits.some((hit) => !hit || hit.json === undefined || Date.now() - hit.at > EARLY_TTL_MS)) return undefined;
  return hits.map((hit) => hit?.json);
}

export function dropEarly(requests: { path: string; query?: Query }[]) {
  for (const { path, query } of requests) early.delete(`${API_ROOT}/${path}${toQueryString(query)}`);
}

function takeEarly(url: string, signal?: AbortSignal): Promise<Response> | null {
  const hit = early.get(url);
  if (!hit) return null;
  early.delete(url);
  if (Date.now() - hit.at > EARLY_TTL_MS) return null;
  if (!signal) return hit.response;
  return new Promise<Response>((resolve, reject) => {
    const abort = () => reject(new DOMException("The operation was aborted.", "AbortError"));
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    hit.response.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

export async function apiFetch<T = unknown>(path: string, options: ApiOptions = {}): Promise<T> {
  const { method = "GET", query, body, signal } = options;
  const isForm = typeof FormData !== "undefined" && body instanceof FormData;
  const url = `${API_ROOT}/${path}${toQueryString(query)}`;
  if (method !== "GET") early.clear();
  const started = method === "GET" && !options.raw ? takeEarly(url, signal) : null;
  let response: Response;
  try {
    response = await (started ??
      fetch(url, {
        method,
        signal,
        credentials: "same-origin",
        headers: {
          Accept: "application/json",
          ...(body !== undefined && !isForm ? { "Content-Type": "application/json" } : {}),
          ...options.headers,
        },
        body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      }));
  } catch (error) {
    if ((error as Error).name === "AbortError") throw error;
    // SPEC §8 "status -1": the server could not be reached.
    throw new HttpError(messages.unexpected, -1, {});
  }
  if (response.ok) {
    if (options.raw) return response as T;
    return (response.status === 204 ? {} : await response.json()) as T;
  }
  let payload: unknown = {};
  try {
    payload = await response.json();
  } catch {
    payload = {};
  }
  throw errorFor(response.status, payload);
}

/** A failed call as an HttpError; record screens send a 404 to the /404 page (src/admin/common/RecordError.tsx). */
export function errorFor(status: number, payload: unknown) {
  const error = (payload as { error?: string })?.error;
  switch (status) {
    case 401:
      return new HttpError(messages.unauthenticated, 401, payload);
    case 403:
      return new HttpError(messages.forbidden, 403, payload);
    case 404:
      return new HttpError(error ?? messages.notFound, 404, payload);
    case 422: {
      const { inline, fieldToasts, base } = validationFromBody(payload);
      if (fieldToasts.length) emit("sia:field-errors", { messages: fieldToasts });
      const message = base[0] ?? fieldToasts[0] ?? messages.invalidValue;
      // body.errors holds only field errors, so forms show them inline; base errors travel as the message.
      return new HttpError(message, 422, Object.keys(inline).length ? { errors: inline } : {});
    }
    default:
      return new HttpError(error ?? messages.unexpected, status, payload);
  }
}
