/**
 * A local server that speaks Google's documented protocol, for the Google adapters' tests:
 * - the OAuth 2.0 token endpoint (POST /token): the JWT-bearer grant of a service account (the assertion's
 *   RS256 signature checked with the key's public half, iss, aud and scope) and the refresh_token grant of
 *   an OAuth client (client_id/client_secret checked; a revoked or unknown refresh token → 400 invalid_grant);
 * - Drive v3 `files` (get, list with `q`/pageSize/pageToken/orderBy/fields, create incl. multipart/related
 *   uploads, update with addParents/removeParents, copy, delete), rooted in a shared drive: like Drive, an
 *   item of a shared drive is invisible without supportsAllDrives (and includeItemsFromAllDrives in lists);
 * - Calendar v3 `calendars/primary/events` (list with timeMin/timeMax/singleEvents/pageToken, insert,
 *   patch, delete), one calendar per user.
 * Every API call needs `Authorization: Bearer <a token this server issued and has not expired>`; errors
 * answer Google's JSON error shape. `failDrive(n)` makes the next n Drive calls answer 403 rateLimitExceeded.
 */
import { createPublicKey, createVerify, generateKeyPairSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";

export const FOLDER_MIME = "application/vnd.google-apps.folder";
const GOOGLE_TOKEN_AUDIENCE = "https://oauth2.googleapis.com/token";
const DRIVE_SCOPE = "https://www.googleapis.com/auth/drive";

export interface FakeFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  trashed: boolean;
  driveId: string | null;
  content: Buffer;
  createdTime: string;
  modifiedTime: string;
}

export interface FakeEvent {
  id: string;
  status?: "confirmed" | "tentative" | "cancelled";
  summary?: string;
  description?: string;
  start: { dateTime?: string; date?: string; timeZone?: string };
  end: { dateTime?: string; date?: string; timeZone?: string };
  transparency?: "opaque" | "transparent";
  recurringEventId?: string;
  originalStartTime?: { dateTime?: string; date?: string };
  organizer?: { email: string; self?: boolean };
  attendees?: Array<{ email: string; responseStatus?: string }>;
  hangoutLink?: string;
  htmlLink?: string;
  sequence?: number;
  created?: string;
  updated?: string;
}

interface Failure {
  status: number;
  reason: string;
  message: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
}

const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const driveId = () => Array.from(randomBytes(33), (b) => ID_CHARS[b % 64]).join("");

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
    message: string,
    readonly domain = "global",
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

const STATUS_NAMES: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  410: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
};

export class FakeGoogle {
  readonly clientId = "sia-pruebas.apps.googleusercontent.com";
  readonly clientSecret = "secreto-del-cliente";
  readonly serviceAccountEmail = "sia-drive@sia-pruebas.iam.gserviceaccount.com";
  /** The shared drive that holds the root folder. */
  readonly sharedDriveId = `0A${driveId().slice(0, 17)}`;
  readonly rootId: string;
  readonly files = new Map<string, FakeFile>();
  /** Calendars by user e-mail. */
  readonly calendars = new Map<string, FakeEvent[]>();
  readonly calls: RecordedCall[] = [];
  /** Every grant the token endpoint answered (grant_type, and the refresh token used). */
  readonly grants: Array<{ grantType: string; refreshToken?: string; ok: boolean }> = [];
  /** Events per page of events.list (small, so tests page). */
  calendarPageSize = 250;
  private readonly privateKey: string;
  private readonly publicKey: string;
  private readonly accessTokens = new Map<string, { subject: string; scope: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, { email: string; revoked: boolean }>();
  private readonly codes = new Map<string, { email: string; redirectUri: string }>();
  private driveFailures: Failure[] = [];
  private calendarFailures: Failure[] = [];
  private server: http.Server | null = null;
  url = "";

  constructor() {
    const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
    this.privateKey = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    this.publicKey = pair.publicKey.export({ type: "spki", format: "pem" }).toString();
    this.rootId = this.addFile({ name: "SIA", mimeType: FOLDER_MIME, parents: [this.sharedDriveId] }).id;
  }

  get tokenUrl() {
    return `${this.url}/token`;
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((error) => {
        if (!res.headersSent) this.send(res, 500, { error: { code: 500, message: String(error) } });
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close() {
    await new Promise<void>((resolve) => {
      this.server?.closeAllConnections?.();
      this.server?.close(() => resolve());
    });
  }

  /** The service account's JSON key, as the Cloud console downloads it (token_uri pointing here). */
  serviceAccountKey() {
    return {
      type: "service_account",
      project_id: "sia-pruebas",
      private_key_id: "clave-1",
      private_key: this.privateKey,
      client_email: this.serviceAccountEmail,
      client_id: "1234567890",
      auth_uri: `${this.url}/o/oauth2/auth`,
      token_uri: this.tokenUrl,
      universe_domain: "googleapis.com",
    };
  }

  writeKeyFile(dir: string): string {
    const file = path.join(dir, "cuenta-de-servicio.json");
    fs.writeFileSync(file, JSON.stringify(this.serviceAccountKey(), null, 2));
    return file;
  }

  /** A user who granted calendar access: answers their refresh token. */
  addUser(email: string): string {
    const token = `1//${driveId()}`;
    this.refreshTokens.set(token, { email, revoked: false });
    if (!this.calendars.has(email)) this.calendars.set(email, []);
    return token;
  }

  /** What Google's consent page hands the redirect URI when the user accepts: a one-time code. */
  authorize(email: string, redirectUri: string): string {
    const code = `4/${driveId()}`;
    this.codes.set(code, { email, redirectUri });
    if (!this.calendars.has(email)) this.calendars.set(email, []);
    return code;
  }

  revoke(refreshToken: string) {
    const entry = this.refreshTokens.get(refreshToken);
    if (entry) entry.revoked = true;
  }

  /** An access token of a user issued earlier (as a browser sign-in would have). */
  issueAccessToken(email: string, scope = "https://www.googleapis.com/auth/calendar"): string {
    const token = `ya29.${driveId()}`;
    this.accessTokens.set(token, { subject: email, scope, expiresAt: Date.now() + 3600_000 });
    return token;
  }

  /** Every access token issued so far stops working (they expired). */
  expireAccessTokens() {
    for (const entry of this.accessTokens.values()) entry.expiresAt = 0;
  }

  /** The next n Drive calls answer this failure (default 403 rateLimitExceeded, as Drive documents it). */
  failDrive(n: number, failure: Partial<Failure> = {}) {
    for (let i = 0; i < n; i++)
      this.driveFailures.push({ status: 403, reason: "rateLimitExceeded", message: "Rate Limit Exceeded", ...failure });
  }

  failCalendar(n: number, failure: Partial<Failure> = {}) {
    for (let i = 0; i < n; i++)
      this.calendarFailures.push({ status: 500, reason: "backendError", message: "Backend Error", ...failure });
  }

  driveCalls() {
    return this.calls.filter((c) => c.path.includes("/drive/v3/"));
  }

  addFile(input: { name: string; mimeType: string; parents: string[]; content?: Buffer }): FakeFile {
    const now = new Date().toISOString();
    const parent = input.parents[0] ? this.files.get(input.parents[0]) : undefined;
    const file: FakeFile = {
      id: driveId(),
      name: input.name,
      mimeType: input.mimeType,
      parents: input.parents,
      trashed: false,
      driveId: parent?.driveId ?? (input.parents[0] === this.sharedDriveId ? this.sharedDriveId : null),
      content: input.content ?? Buffer.alloc(0),
      createdTime: now,
      modifiedTime: now,
    };
    this.files.set(file.id, file);
    return file;
  }

  addEvent(email: string, event: Omit<FakeEvent, "id"> & { id?: string }): FakeEvent {
    const calendar = this.calendars.get(email) ?? [];
    this.calendars.set(email, calendar);
    const stored: FakeEvent = {
      status: "confirmed",
      organizer: { email, self: true },
      sequence: 0,
      created: new Date().toISOString(),
      updated: new Date().toISOString(),
      ...event,
      id:
        event.id ??
        driveId()
          .toLowerCase()
          .replace(/[^a-v0-9]/g, "a"),
    };
    stored.htmlLink ??= `https://www.google.com/calendar/event?eid=${Buffer.from(`${stored.id} ${email}`).toString("base64url")}`;
    calendar.push(stored);
    return stored;
  }

  // ----------------------------------------------------------------------------------------------

  private send(res: http.ServerResponse, status: number, body?: unknown) {
    if (body === undefined) {
      res.writeHead(status);
      res.end();
      return;
    }
    const text = JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json; charset=UTF-8" });
    res.end(text);
  }

  private errorBody(error: ApiError) {
    return {
      error: {
        code: error.status,
        message: error.message,
        errors: [{ message: error.message, domain: error.domain, reason: error.reason, ...error.extra }],
        status: STATUS_NAMES[error.status],
      },
    };
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? "/", this.url);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const call: RecordedCall = { method: req.method ?? "GET", path: url.pathname, query: url.searchParams, status: 0 };
    this.calls.push(call);
    const reply = (status: number, payload?: unknown) => {
      call.status = status;
      this.send(res, status, payload);
    };
    try {
      if (url.pathname === "/token" && req.method === "POST") {
        const [status, payload] = this.token(req, body);
        return reply(status, payload);
      }
      const isDrive = url.pathname.startsWith("/drive/v3/") || url.pathname.startsWith("/upload/drive/v3/");
      const isCalendar = url.pathname.startsWith("/calendar/v3/");
      if (!isDrive && !isCalendar) throw new ApiError(404, "notFound", "Not Found");
      const subject = this.authenticate(req, isDrive ? DRIVE_SCOPE : "https://www.googleapis.com/auth/calendar");
      const failure = (isDrive ? this.driveFailures : this.calendarFailures).shift();
      if (failure)
        throw new ApiError(failure.status, failure.reason, failure.message, failure.status === 403 ? "usageLimits" : "global");
      if (isDrive) {
        const [status, payload] = this.drive(req.method ?? "GET", url, req.headers, body);
        return reply(status, payload);
      }
      const [status, payload] = this.calendar(req.method ?? "GET", url, subject, body);
      return reply(status, payload);
    } catch (error) {
      if (error instanceof ApiError) return reply(error.status, this.errorBody(error));
      throw error;
    }
  }

  private authenticate(req: http.IncomingMessage, scope: string): string {
    const header = req.headers.authorization ?? "";
    const match = header.match(/^Bearer (\S+)$/);
    const entry = match ? this.accessTokens.get(match[1]) : undefined;
    if (!entry || entry.expiresAt <= Date.now())
      throw new ApiError(
        401,
        "authError",
        "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
        "global",
        { location: "Authorization", locationType: "header" },
      );
    if (!entry.scope.split(" ").includes(scope))
      throw new ApiError(403, "insufficientPermissions", "Request had insufficient authentication scopes.");
    return entry.subject;
  }

  // --- OAuth 2.0 token endpoint ------------------------------------------------------------------

  private token(req: http.IncomingMessage, body: Buffer): [number, unknown] {
    if (!String(req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded"))
      return [400, { error: "invalid_request", error_description: "Bad Request" }];
    const form = new URLSearchParams(body.toString("utf8"));
    const grantType = form.get("grant_type") ?? "";
    const fail = (error: string, description: string, status = 400): [number, unknown] => {
      this.grants.push({ grantType, refreshToken: form.get("refresh_token") ?? undefined, ok: false });
      return [status, { error, error_description: description }];
    };
    if (grantType === "urn:ietf:params:oauth:grant-type:jwt-bearer") {
      const claims = this.verifyAssertion(form.get("assertion") ?? "");
      if (!claims) return fail("invalid_grant", "Invalid JWT Signature.");
      if (claims.iss !== this.serviceAccountEmail) return fail("invalid_grant", "Invalid issuer.");
      if (claims.aud !== GOOGLE_TOKEN_AUDIENCE) return fail("invalid_grant", "Invalid JWT audience.");
      const now = Math.floor(Date.now() / 1000);
      if (typeof claims.exp !== "number" || claims.exp < now || typeof claims.iat !== "number" || claims.iat > now + 300)
        return fail("invalid_grant", "Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.");
      if (typeof claims.scope !== "string" || !claims.scope) return fail("invalid_scope", "Invalid OAuth scope.");
      const token = `ya29.c.${driveId()}`;
      this.accessTokens.set(token, { subject: this.serviceAccountEmail, scope: claims.scope, expiresAt: Date.now() + 3600_000 });
      this.grants.push({ grantType, ok: true });
      return [200, { access_token: token, expires_in: 3599, token_type: "Bearer" }];
    }
    if (grantType === "refresh_token") {
      if (form.get("client_id") !== this.clientId || form.get("client_secret") !== this.clientSecret)
        return fail("invalid_client", "The OAuth client was not found.", 401);
      const entry = this.refreshTokens.get(form.get("refresh_token") ?? "");
      if (!entry || entry.revoked) return fail("invalid_grant", "Token has been expired or revoked.");
      const token = this.issueAccessToken(entry.email);
      this.grants.push({ grantType, refreshToken: form.get("refresh_token") ?? undefined, ok: true });
      return [
        200,
        {
          access_token: token,
          expires_in: 3599,
          scope: "https://www.googleapis.com/auth/calendar",
          token_type: "Bearer",
        },
      ];
    }
    if (grantType === "authorization_code") {
      if (form.get("client_id") !== this.clientId || form.get("client_secret") !== this.clientSecret)
        return fail("invalid_client", "The OAuth client was not found.", 401);
      const code = form.get("code") ?? "";
      const entry = this.codes.get(code);
      if (!entry) return fail("invalid_grant", "Malformed auth code.");
      if (entry.redirectUri !== form.get("redirect_uri")) return fail("redirect_uri_mismatch", "Bad Request");
      this.codes.delete(code);
      const refreshToken = this.addUser(entry.email);
      this.grants.push({ grantType, ok: true });
      return [
        200,
        {
          access_token: this.issueAccessToken(entry.email),
          expires_in: 3599,
          refresh_token: refreshToken,
          scope: "https://www.googleapis.com/auth/calendar",
          token_type: "Bearer",
        },
      ];
    }
    return fail("unsupported_grant_type", "Invalid grant_type");
  }

  private verifyAssertion(assertion: string): Record<string, unknown> | null {
    const parts = assertion.split(".");
    if (parts.length !== 3) return null;
    try {
      const header = JSON.parse(Buffer.from(parts[0], "base64url").toString("utf8"));
      if (header.alg !== "RS256") return null;
      const verifier = createVerify("RSA-SHA256");
      verifier.update(`${parts[0]}.${parts[1]}`);
      if (!verifier.verify(createPublicKey(this.publicKey), Buffer.from(parts[2], "base64url"))) return null;
      return JSON.parse(Buffer.from(parts[1], "base64url").toString("utf8"));
    } catch {
      return null;
    }
  }

  // --- Drive v3 ----------------------------------------------------------------------------------

  /** An item the caller may see: not in a shared drive, or the call says it supports all drives. */
  private visible(file: FakeFile | undefined, query: URLSearchParams): FakeFile {
    if (!file || (file.driveId && query.get("supportsAllDrives") !== "true")) {
      throw new ApiError(404, "notFound", `File not found: ${file?.id ?? ""}.`, "global", {
        location: "fileId",
        locationType: "parameter",
      });
    }
    return file;
  }

  private fileById(id: string, query: URLSearchParams) {
    const file = this.files.get(id);
    if (!file)
      throw new ApiError(404, "notFound", `File not found: ${id}.`, "global", { location: "fileId", locationType: "parameter" });
    return this.visible(file, query);
  }

  private resource(file: FakeFile): Record<string, unknown> {
    const folder = file.mimeType === FOLDER_MIME;
    return {
      kind: "drive#file",
      id: file.id,
      name: file.name,
      mimeType: file.mimeType,
      parents: file.parents,
      trashed: file.trashed,
      driveId: file.driveId ?? undefined,
      createdTime: file.createdTime,
      modifiedTime: file.modifiedTime,
      size: folder ? undefined : String(file.content.length),
      webViewLink: folder
        ? `https://drive.google.com/drive/folders/${file.id}`
        : `https://drive.google.com/file/d/${file.id}/view?usp=drivesdk`,
    };
  }

  /** Drive's partial responses: `fields=id,name` (or `files(id,name)` inside a list). */
  private select(resource: Record<string, unknown>, fields: string | null): Record<string, unknown> {
    const wanted = fields ? fields.split(",").map((f) => f.trim()) : ["kind", "id", "name", "mimeType"];
    if (wanted.includes("*")) return resource;
    return Object.fromEntries(wanted.filter((f) => resource[f] !== undefined).map((f) => [f, resource[f]]));
  }

  private isInside(id: string, ancestor: string): boolean {
    let current = this.files.get(id);
    for (let depth = 0; current && depth < 100; depth++) {
      if (current.parents.includes(ancestor)) return true;
      current = this.files.get(current.parents[0] ?? "");
    }
    return false;
  }

  private drive(method: string, url: URL, headers: http.IncomingHttpHeaders, body: Buffer): [number, unknown] {
    const q = url.searchParams;
    const route = url.pathname.replace(/^\/(upload\/)?drive\/v3/, "");
    const copy = route.match(/^\/files\/([^/]+)\/copy$/);
    const one = route.match(/^\/files\/([^/]+)$/);
    if (route === "/files" && method === "GET") return [200, this.list(q)];
    if (route === "/files" && method === "POST") return [200, this.create(url, headers, body)];
    if (copy && method === "POST") return [200, this.copy(decodeURIComponent(copy[1]), q, this.json(body))];
    if (one && method === "GET") {
      const file = this.fileById(decodeURIComponent(one[1]), q);
      if (q.get("alt") === "media") return [200, file.content.toString("utf8")];
      return [200, this.select(this.resource(file), q.get("fields"))];
    }
    if (one && method === "PATCH") return [200, this.update(decodeURIComponent(one[1]), q, this.json(body))];
    if (one && method === "DELETE") {
      const file = this.fileById(decodeURIComponent(one[1]), q);
      for (const other of [...this.files.values()]) if (this.isInside(other.id, file.id)) this.files.delete(other.id);
      this.files.delete(file.id);
      return [204, undefined];
    }
    throw new ApiError(404, "notFound", "Not Found");
  }

  private json(body: Buffer): Record<string, unknown> {
    if (!body.length) return {};
    try {
      return JSON.parse(body.toString("utf8"));
    } catch {
      throw new ApiError(400, "parseError", "Parse Error");
    }
  }

  private checkParents(parents: unknown, q: URLSearchParams): string[] {
    if (parents === undefined) return [this.rootId];
    if (!Array.isArray(parents) || parents.length !== 1 || typeof parents[0] !== "string")
      throw new ApiError(400, "invalid", "A shared drive item must have exactly one parent.");
    const parent = this.fileById(parents[0], q);
    if (parent.mimeType !== FOLDER_MIME || parent.trashed)
      throw new ApiError(400, "invalid", "The specified parent is not a folder.");
    return [parent.id];
  }

  private create(url: URL, headers: http.IncomingHttpHeaders, body: Buffer) {
    const q = url.searchParams;
    let metadata: Record<string, unknown>;
    let content: Buffer = Buffer.alloc(0);
    const type = String(headers["content-type"] ?? "");
    if (url.pathname.startsWith("/upload/")) {
      if (q.get("uploadType") !== "multipart") throw new ApiError(400, "invalid", "Invalid uploadType.");
      const boundary = type.match(/^multipart\/related;\s*boundary=(.+)$/i)?.[1]?.replace(/^"|"$/g, "");
      if (!boundary) throw new ApiError(400, "badContent", "Media type must be multipart/related.");
      const parts = parseMultipart(body, boundary);
      if (parts.length !== 2 || !/application\/json/i.test(parts[0].type))
        throw new ApiError(400, "badContent", "Bad multipart request.");
      metadata = this.json(parts[0].body);
      content = parts[1].body;
      metadata.mimeType ??= parts[1].type;
    } else {
      if (body.length && !type.startsWith("application/json")) throw new ApiError(400, "badContent", "Bad content type.");
      metadata = this.json(body);
    }
    if (typeof metadata.name !== "string" || !metadata.name) metadata.name = "Untitled";
    const parents = this.checkParents(metadata.parents, q);
    const file = this.addFile({
      name: metadata.name as string,
      mimeType: typeof metadata.mimeType === "string" ? metadata.mimeType : "application/octet-stream",
      parents,
      content,
    });
    return this.select(this.resource(file), q.get("fields"));
  }

  private copy(id: string, q: URLSearchParams, metadata: Record<string, unknown>) {
    const source = this.fileById(id, q);
    if (source.mimeType === FOLDER_MIME)
      throw new ApiError(403, "cannotCopyFile", "This file cannot be copied by the user.", "global");
    const parents = metadata.parents === undefined ? source.parents : this.checkParents(metadata.parents, q);
    const file = this.addFile({
      name: typeof metadata.name === "string" ? metadata.name : `Copy of ${source.name}`,
      mimeType: source.mimeType,
      parents,
      content: Buffer.from(source.content),
    });
    return this.select(this.resource(file), q.get("fields"));
  }

  private update(id: string, q: URLSearchParams, metadata: Record<string, unknown>) {
    const file = this.fileById(id, q);
    if ("parents" in metadata)
      throw new ApiError(403, "fieldNotWritable", "The resource body includes fields which are not directly writable.");
    const add = (q.get("addParents") ?? "").split(",").filter(Boolean);
    const remove = (q.get("removeParents") ?? "").split(",").filter(Boolean);
    if (add.length || remove.length) {
      for (const r of remove) if (!file.parents.includes(r)) throw new ApiError(400, "invalid", "Invalid removeParents.");
      const next = file.parents.filter((p) => !remove.includes(p));
      for (const a of add) {
        const parent = this.fileById(a, q);
        if (parent.mimeType !== FOLDER_MIME) throw new ApiError(400, "invalid", "The specified parent is not a folder.");
        if (a === file.id || this.isInside(a, file.id)) throw new ApiError(400, "invalid", "Cycle detected.");
        if (!next.includes(a)) next.push(a);
      }
      if (next.length !== 1)
        throw new ApiError(403, "teamDrivesParentLimit", "A shared drive item must have exactly one parent.");
      file.parents = next;
    }
    if (typeof metadata.name === "string" && metadata.name) file.name = metadata.name;
    if (typeof metadata.trashed === "boolean") {
      file.trashed = metadata.trashed;
    }
    file.modifiedTime = new Date().toISOString();
    return this.select(this.resource(file), q.get("fields"));
  }

  /** A trashed folder trashes what it holds (as in Drive). */
  private effectivelyTrashed(file: FakeFile): boolean {
    let current: FakeFile | undefined = file;
    for (let depth = 0; current && depth < 100; depth++) {
      if (current.trashed) return true;
      current = this.files.get(current.parents[0] ?? "");
    }
    return false;
  }

  private list(q: URLSearchParams) {
    const pageSize = Number(q.get("pageSize") ?? 100);
    if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000)
      throw new ApiError(400, "invalid", `Invalid value '${q.get("pageSize")}'. Values must be within the range: [1, 1000]`);
    const conditions = parseQuery(q.get("q") ?? "");
    const allDrives = q.get("includeItemsFromAllDrives") === "true" && q.get("supportsAllDrives") === "true";
    let items = [...this.files.values()].filter(
      (file) =>
        (!file.driveId || allDrives) &&
        conditions.every((c) => {
          switch (c.kind) {
            case "parent":
              return file.parents.includes(c.value);
            case "trashed":
              return this.effectivelyTrashed(file) === c.value;
            case "name":
              return c.negate ? file.name !== c.value : file.name === c.value;
            case "mimeType":
              return c.negate ? file.mimeType !== c.value : file.mimeType === c.value;
            default:
              return false;
          }
        }),
    );
    const order = (q.get("orderBy") ?? "").split(",").map((o) => o.trim());
    items.sort((a, b) => {
      for (const key of order) {
        if (key === "folder") {
          const d = Number(b.mimeType === FOLDER_MIME) - Number(a.mimeType === FOLDER_MIME);
          if (d) return d;
        } else if (key === "name") {
          const d = a.name.localeCompare(b.name, "en");
          if (d) return d;
        }
      }
      return a.createdTime.localeCompare(b.createdTime);
    });
    let offset = 0;
    const pageToken = q.get("pageToken");
    if (pageToken) {
      const decoded = Buffer.from(pageToken, "base64url")
        .toString("utf8")
        .match(/^offset:(\d+)$/);
      if (!decoded) throw new ApiError(400, "invalid", "Invalid Value", "global", { location: "pageToken" });
      offset = Number(decoded[1]);
    }
    const total = items.length;
    items = items.slice(offset, offset + pageSize);
    const fields = q.get("fields");
    const fileFields = fields?.match(/files\(([^)]*)\)/)?.[1] ?? null;
    const next = offset + pageSize < total ? Buffer.from(`offset:${offset + pageSize}`).toString("base64url") : undefined;
    const out: Record<string, unknown> = {
      kind: "drive#fileList",
      incompleteSearch: false,
      files: items.map((file) => this.select(this.resource(file), fileFields)),
    };
    if (next && (!fields || fields.includes("nextPageToken"))) out.nextPageToken = next;
    return out;
  }

  // --- Calendar v3 -------------------------------------------------------------------------------

  private calendar(method: string, url: URL, subject: string, body: Buffer): [number, unknown] {
    const match = url.pathname.match(/^\/calendar\/v3\/calendars\/([^/]+)\/events(?:\/([^/]+))?$/);
    if (!match) throw new ApiError(404, "notFound", "Not Found");
    const calendarId = decodeURIComponent(match[1]);
    if (calendarId !== "primary" && calendarId !== subject) throw new ApiError(404, "notFound", "Not Found");
    const events = this.calendars.get(subject) ?? [];
    this.calendars.set(subject, events);
    const eventId = match[2] ? decodeURIComponent(match[2]) : null;
    const q = url.searchParams;
    if (!eventId && method === "GET") return [200, this.listEvents(subject, events, q)];
    if (!eventId && method === "POST") {
      const input = this.json(body) as Partial<FakeEvent>;
      this.checkTimes(input);
      const event = this.addEvent(subject, {
        summary: input.summary,
        description: input.description,
        start: input.start as FakeEvent["start"],
        end: input.end as FakeEvent["end"],
        attendees: (input.attendees ?? []).map((a) => ({ email: a.email, responseStatus: "needsAction" })),
        transparency: input.transparency,
      });
      return [200, this.eventResource(event)];
    }
    const event = events.find((e) => e.id === eventId);
    if (!event) throw new ApiError(404, "notFound", "Not Found");
    if (event.status === "cancelled" && method !== "GET") throw new ApiError(410, "deleted", "Resource has been deleted");
    if (method === "GET") return [200, this.eventResource(event)];
    if (method === "PATCH") {
      const input = this.json(body) as Partial<FakeEvent>;
      const merged = { ...event, ...input };
      this.checkTimes(merged);
      Object.assign(event, input, {
        attendees: input.attendees
          ? input.attendees.map((a) => ({ email: a.email, responseStatus: "needsAction" }))
          : event.attendees,
        sequence: (event.sequence ?? 0) + 1,
        updated: new Date().toISOString(),
      });
      return [200, this.eventResource(event)];
    }
    if (method === "DELETE") {
      event.status = "cancelled";
      return [204, undefined];
    }
    throw new ApiError(404, "notFound", "Not Found");
  }

  private checkTimes(event: Partial<FakeEvent>) {
    if (!event.start || !(event.start.dateTime || event.start.date)) throw new ApiError(400, "required", "Missing start time.");
    if (!event.end || !(event.end.dateTime || event.end.date)) throw new ApiError(400, "required", "Missing end time.");
    const start = Date.parse(event.start.dateTime ?? event.start.date ?? "");
    const end = Date.parse(event.end.dateTime ?? event.end.date ?? "");
    if (Number.isNaN(start) || Number.isNaN(end)) throw new ApiError(400, "invalid", "Invalid start or end time.");
    if (end < start) throw new ApiError(400, "timeRangeEmpty", "The specified time range is empty.");
  }

  private eventResource(event: FakeEvent) {
    return { kind: "calendar#event", etag: `"${event.sequence ?? 0}"`, eventType: "default", ...event };
  }

  private listEvents(subject: string, events: FakeEvent[], q: URLSearchParams) {
    const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
    for (const name of ["timeMin", "timeMax"]) {
      const value = q.get(name);
      if (value !== null && !rfc3339.test(value)) throw new ApiError(400, "badRequest", "Bad Request");
    }
    const min = q.get("timeMin") ? Date.parse(q.get("timeMin") as string) : Number.NEGATIVE_INFINITY;
    const max = q.get("timeMax") ? Date.parse(q.get("timeMax") as string) : Number.POSITIVE_INFINITY;
    const showDeleted = q.get("showDeleted") === "true";
    const single = q.get("singleEvents") === "true";
    const timeOf = (t: { dateTime?: string; date?: string }) => Date.parse(t.dateTime ?? `${t.date}T00:00:00Z`);
    let matching = events.filter(
      (e) => (showDeleted || e.status !== "cancelled") && timeOf(e.end) > min && timeOf(e.start) < max,
    );
    if (!single) {
      // Without singleEvents the series come back once, as their recurring master.
      const seen = new Set<string>();
      matching = matching.flatMap((e) => {
        if (!e.recurringEventId) return [e];
        if (seen.has(e.recurringEventId)) return [];
        seen.add(e.recurringEventId);
        return [{ ...e, id: e.recurringEventId, recurringEventId: undefined, recurrence: ["RRULE:FREQ=WEEKLY"] } as FakeEvent];
      });
    }
    matching.sort((a, b) => timeOf(a.start) - timeOf(b.start));
    const maxResults = Math.min(Number(q.get("maxResults") ?? 250) || 250, 2500, this.calendarPageSize);
    let offset = 0;
    const pageToken = q.get("pageToken");
    if (pageToken) {
      const decoded = Buffer.from(pageToken, "base64url")
        .toString("utf8")
        .match(/^events:(\d+)$/);
      if (!decoded) throw new ApiError(400, "invalid", "Invalid Value");
      offset = Number(decoded[1]);
    }
    const page = matching.slice(offset, offset + maxResults);
    const out: Record<string, unknown> = {
      kind: "calendar#events",
      etag: '"p33c"',
      summary: subject,
      updated: new Date().toISOString(),
      timeZone: "America/Mexico_City",
      accessRole: "owner",
      defaultReminders: [{ method: "popup", minutes: 10 }],
      items: page.map((e) => this.eventResource(e)),
    };
    if (offset + maxResults < matching.length)
      out.nextPageToken = Buffer.from(`events:${offset + maxResults}`).toString("base64url");
    else out.nextSyncToken = "CPDAlvWDx70CEPDAlvWDx70CGAU=";
    return out;
  }
}

type Condition =
  | { kind: "parent"; value: string }
  | { kind: "trashed"; value: boolean }
  | { kind: "name" | "mimeType"; value: string; negate: boolean };

/** Drive's `q` for what the adapter sends: conditions joined by `and` (strings quoted, \' and \\ escaped). */
export function parseQuery(query: string): Condition[] {
  const conditions: Condition[] = [];
  let rest = query.trim();
  const string = `'((?:[^'\\\\]|\\\\.)*)'`;
  const unquote = (s: string) => s.replace(/\\(.)/g, "$1");
  while (rest) {
    const parent = rest.match(new RegExp(`^${string}\\s+in\\s+parents`));
    const trashed = rest.match(/^trashed\s*=\s*(true|false)/);
    const field = rest.match(new RegExp(`^(name|mimeType)\\s*(=|!=)\\s*${string}`));
    const match = parent ?? trashed ?? field;
    if (parent) conditions.push({ kind: "parent", value: unquote(parent[1]) });
    else if (trashed) conditions.push({ kind: "trashed", value: trashed[1] === "true" });
    else if (field)
      conditions.push({ kind: field[1] as "name" | "mimeType", value: unquote(field[3]), negate: field[2] === "!=" });
    if (!match) throw new ApiError(400, "invalid", "Invalid Value", "global", { location: "q", locationType: "parameter" });
    rest = rest.slice(match[0].length).trim();
    if (!rest) break;
    const and = rest.match(/^and\s+/);
    if (!and) throw new ApiError(400, "invalid", "Invalid Value", "global", { location: "q", locationType: "parameter" });
    rest = rest.slice(and[0].length);
  }
  return conditions;
}

function parseMultipart(body: Buffer, boundary: string): Array<{ type: string; body: Buffer }> {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: Array<{ type: string; body: Buffer }> = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const afterDelimiter = start + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === "--") break;
    const next = body.indexOf(delimiter, afterDelimiter);
    if (next === -1) break;
    const part = body.subarray(afterDelimiter + 2, next - 2); // skip CRLF after the delimiter and before the next
    const split = part.indexOf("\r\n\r\n");
    const head = part.subarray(0, split).toString("utf8");
    parts.push({ type: head.match(/content-type:\s*([^\r\n;]+)/i)?.[1]?.trim() ?? "", body: part.subarray(split + 4) });
    start = next;
  }
  return parts;
}
