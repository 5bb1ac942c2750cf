/**
 * A local Azure DevOps (Services) organisation for tests: a node http server on port 0 answering what the
 * official client (azure-devops-node-api) sends, with the documented requests and JSON shapes:
 *   OPTIONS {org}/_apis/{area}                 resource locations of an area ({count, value: [ApiResourceLocation]})
 *   GET     {org}/_apis/ResourceAreas          where each area lives ({count, value: [{id, name, locationUrl}]})
 *   GET     {org}/_apis/projects[/{name}]      team projects (core)
 *   POST    {org}/{project}/_apis/wit/wiql     a WIQL query → {queryType, workItems: [{id, url}], …}
 *   POST    {org}/{project}/_apis/wit/workitemsbatch   {ids, fields} → {count, value: [{id, rev, fields, url}]}
 *   GET     {org}/{project}/_apis/wit/workitems?ids=…  the same as a list
 * Every request needs Basic auth whose password is a known PAT (401 otherwise); an unknown project is a 404
 * with Azure's TF200016 body; a WIQL that does not parse is a 400. The WIQL is really parsed (strings with
 * doubled quotes, fields, AND/OR, parentheses, =, <>, CONTAINS, ORDER BY), so an injected quote changes the
 * query as it would on Azure. Requests are kept (method, path, token, body) for the tests to look at.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeWorkItem {
  id: number;
  title: string;
  state: string;
  /** ISO instant of the last change (ORDER BY [System.ChangedDate]). */
  changed: string;
}
export interface FakeAzureOptions {
  /** Organisation name: the URL is http://127.0.0.1:PORT/{org}. */
  org?: string;
  /** PATs the organisation accepts. */
  tokens: string[];
  /** Team projects and their work items. */
  projects: Record<string, FakeWorkItem[]>;
}
export interface FakeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  token: string | null;
  body: unknown;
}

const WIT_AREA = "5264459e-e5e0-4bd8-b118-0985e68a4ec5";
const CORE_AREA = "79134c72-4a58-4b42-976c-04e7115f32bf";
const LOCATION_AREA = "e81700f7-3be2-46de-8624-2eb35882fcaa";

const location = (id: string, area: string, resourceName: string, routeTemplate: string, releasedVersion = "7.1") => ({
  id,
  area,
  resourceName,
  routeTemplate,
  routeName: resourceName,
  resourceVersion: 3,
  minVersion: "1.0",
  maxVersion: "7.2",
  releasedVersion,
});
/** The resource locations of each area (ids and route templates as Azure DevOps publishes them). */
const LOCATIONS: Record<string, ReturnType<typeof location>[]> = {
  location: [location(LOCATION_AREA, "Location", "ResourceAreas", "_apis/{resource}/{areaId}", "0.0")],
  wit: [
    location("1a9c53f7-f243-4447-b110-35ef023636e4", "wit", "wiql", "{project}/{team}/_apis/{area}/{resource}/{id}"),
    location("908509b6-4248-4475-a1cd-829139ba419f", "wit", "workItemsBatch", "{project}/_apis/{area}/{resource}"),
    location("72c7ddf8-2cdc-4f60-90cd-ab71c14a399b", "wit", "workItems", "{project}/_apis/{area}/{resource}/{id}"),
  ],
  core: [location("603fe2ac-9723-48b9-88ad-09305aa6c6e1", "core", "projects", "_apis/{resource}/{*projectId}")],
};

// --- a small WIQL parser ---------------------------------------------------------------------------
type Token =
  | { t: "str"; v: string }
  | { t: "field"; v: string }
  | { t: "num"; v: number }
  | { t: "op"; v: string }
  | { t: "word"; v: string };
class WiqlError extends Error {}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
    } else if (c === "'") {
      let value = "";
      i++;
      for (;;) {
        if (i >= text.length) throw new WiqlError("unterminated string");
        if (text[i] === "'") {
          if (text[i + 1] === "'") {
            value += "'";
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += text[i++];
      }
      tokens.push({ t: "str", v: value });
    } else if (c === "[") {
      const end = text.indexOf("]", i);
      if (end < 0) throw new WiqlError("unterminated field");
      tokens.push({ t: "field", v: text.slice(i + 1, end) });
      i = end + 1;
    } else if (/\d/.test(c)) {
      const m = /^\d+/.exec(text.slice(i))![0];
      tokens.push({ t: "num", v: Number(m) });
      i += m.length;
    } else if (/[<>=(),]/.test(c)) {
      const two = text.slice(i, i + 2);
      const op = ["<>", ">=", "<="].includes(two) ? two : c;
      tokens.push({ t: "op", v: op });
      i += op.length;
    } else if (/[A-Za-z@_]/.test(c)) {
      const m = /^[A-Za-z@_.]+/.exec(text.slice(i))![0];
      tokens.push({ t: "word", v: m.toUpperCase() });
      i += m.length;
    } else {
      throw new WiqlError(`unexpected ${c}`);
    }
  }
  return tokens;
}

type Row = Record<string, string | number>;
type Predicate = (row: Row) => boolean;

interface ParsedWiql {
  where: Predicate;
  order?: { field: string; desc: boolean };
}

function parseWiql(text: string): ParsedWiql {
  const tokens = tokenize(text);
  let p = 0;
  const peek = () => tokens[p];
  const word = (w: string) => peek()?.t === "word" && peek()!.v === w;
  const expectWord = (w: string) => {
    if (!word(w)) throw new WiqlError(`expected ${w}`);
    p++;
  };
  expectWord("SELECT");
  while (peek() && !word("FROM")) p++;
  expectWord("FROM");
  expectWord("WORKITEMS");
  let where: Predicate = () => true;
  const value = (): string | number => {
    const tok = tokens[p++];
    if (tok?.t === "str" || tok?.t === "num") return tok.v;
    throw new WiqlError("expected a value");
  };
  const factor = (): Predicate => {
    const tok = peek();
    if (tok?.t === "op" && tok.v === "(") {
      p++;
      const inner = expr();
      const close = tokens[p++];
      if (close?.t !== "op" || close.v !== ")") throw new WiqlError("expected )");
      return inner;
    }
    if (tok?.t !== "field") throw new WiqlError("expected a field");
    p++;
    const field = tok.v;
    const op = tokens[p++];
    if (op?.t === "word" && op.v === "CONTAINS") {
      const needle = String(value()).toLowerCase();
      return (row) =>
        String(row[field] ?? "")
          .toLowerCase()
          .includes(needle);
    }
    if (op?.t !== "op") throw new WiqlError("expected an operator");
    const v = value();
    const same = (row: Row) => String(row[field] ?? "").toLowerCase() === String(v).toLowerCase();
    switch (op.v) {
      case "=":
        return same;
      case "<>":
        return (row) => !same(row);
      case ">":
        return (row) => Number(row[field]) > Number(v);
      case "<":
        return (row) => Number(row[field]) < Number(v);
      default:
        throw new WiqlError(`unsupported operator ${op.v}`);
    }
  };
  const term = (): Predicate => {
    let left = factor();
    while (word("AND")) {
      p++;
      const a = left;
      const b = factor();
      left = (row) => a(row) && b(row);
    }
    return left;
  };
  const expr = (): Predicate => {
    let left = term();
    while (word("OR")) {
      p++;
      const a = left;
      const b = term();
      left = (row) => a(row) || b(row);
    }
    return left;
  };
  if (word("WHERE")) {
    p++;
    where = expr();
  }
  let order: ParsedWiql["order"];
  if (word("ORDER")) {
    p++;
    expectWord("BY");
    const field = tokens[p++];
    if (field?.t !== "field") throw new WiqlError("expected a field");
    let desc = false;
    if (word("DESC") || word("ASC")) desc = tokens[p++].v === "DESC";
    order = { field: field.v, desc };
  }
  if (p !== tokens.length) throw new WiqlError("unexpected text after the query");
  return { where, order };
}

// --- the server ------------------------------------------------------------------------------------
export async function startFakeAzureDevOps(options: FakeAzureOptions) {
  const org = options.org ?? "firma";
  const requests: FakeRequest[] = [];
  const projectIds = new Map(Object.keys(options.projects).map((name) => [name.toLowerCase(), randomUUID()]));
  let base = "";

  const findProject = (name: string) => Object.keys(options.projects).find((p) => p.toLowerCase() === name.toLowerCase());
  const rowOf = (project: string, item: FakeWorkItem): Row => ({
    "System.Id": item.id,
    "System.Title": item.title,
    "System.State": item.state,
    "System.TeamProject": project,
    "System.ChangedDate": item.changed,
    "System.WorkItemType": "Task",
  });
  const allRows = () => Object.entries(options.projects).flatMap(([project, items]) => items.map((i) => rowOf(project, i)));
  const itemUrl = (project: string, id: number) => `${base}/${projectIds.get(project.toLowerCase())}/_apis/wit/workItems/${id}`;
  const workItem = (row: Row, fields?: string[]) => ({
    id: row["System.Id"],
    rev: 1,
    fields: Object.fromEntries(Object.entries(row).filter(([k]) => !fields || fields.includes(k))),
    url: itemUrl(String(row["System.TeamProject"]), Number(row["System.Id"])),
  });
  const projectNotFound = (name: string) => ({
    $id: "1",
    innerException: null,
    message: `TF200016: The following project does not exist: ${name}. Verify that the name of the project is correct and that the project exists on the specified Azure DevOps Server.`,
    typeName: "Microsoft.TeamFoundation.Core.WebApi.ProjectDoesNotExistException, Microsoft.TeamFoundation.Core.WebApi",
    typeKey: "ProjectDoesNotExistException",
    errorCode: 0,
    eventId: 3000,
  });
  const projectJson = (name: string) => ({
    id: projectIds.get(name.toLowerCase()),
    name,
    url: `${base}/_apis/projects/${projectIds.get(name.toLowerCase())}`,
    state: "wellFormed",
    revision: 1,
    visibility: "private",
    lastUpdateTime: "2025-01-01T00:00:00Z",
  });

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://localhost");
      const send = (status: number, body?: unknown) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
        res.end(body === undefined ? "" : JSON.stringify(body));
      };
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        return send(400, { message: "VS403379: The body of the request is not valid JSON." });
      }
      const auth = /^Basic (.+)$/i.exec(req.headers.authorization ?? "");
      const decoded = auth ? Buffer.from(auth[1], "base64").toString("utf8") : "";
      const token = auth ? decoded.slice(decoded.indexOf(":") + 1) : null;
      let segments: string[];
      try {
        segments = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
      } catch {
        return send(400, { message: "The request URL is not valid." });
      }
      requests.push({
        method: req.method ?? "GET",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        token,
        body,
      });
      if (!token || !options.tokens.includes(token)) {
        res.writeHead(401, { "www-authenticate": 'Basic realm="https://dev.azure.com/"', "content-type": "text/html" });
        return res.end("<html><body>Access Denied: The Personal Access Token used has expired or is invalid.</body></html>");
      }
      if (segments[0] !== org) return send(404, { message: "The resource cannot be found." });
      const rest = segments.slice(1);
      // OPTIONS {org}/_apis/{area}: where the area's resources are and which versions they speak.
      if (req.method === "OPTIONS" && rest[0] === "_apis" && rest.length === 2) {
        const value = LOCATIONS[rest[1].toLowerCase()] ?? [];
        return send(200, { count: value.length, value });
      }
      if (req.method === "GET" && rest[0] === "_apis" && rest[1]?.toLowerCase() === "resourceareas") {
        const value = [
          { id: WIT_AREA, name: "wit", locationUrl: `${base}/` },
          { id: CORE_AREA, name: "core", locationUrl: `${base}/` },
        ];
        return send(200, { count: value.length, value });
      }
      if (req.method === "GET" && rest[0] === "_apis" && rest[1] === "projects") {
        if (rest[2]) {
          const name = findProject(rest[2]) ?? [...projectIds].find(([, id]) => id === rest[2])?.[0];
          const found = name ? findProject(name) : undefined;
          return found ? send(200, projectJson(found)) : send(404, projectNotFound(rest[2]));
        }
        const top = Number(url.searchParams.get("$top") ?? 100);
        const value = Object.keys(options.projects).slice(0, top).map(projectJson);
        return send(200, { count: value.length, value });
      }
      // {project}/_apis/wit/…
      if (rest.length >= 4 && rest[1] === "_apis" && rest[2] === "wit") {
        const project = findProject(rest[0]);
        if (!project) return send(404, projectNotFound(rest[0]));
        const resource = rest[3].toLowerCase();
        if (req.method === "POST" && resource === "wiql") {
          const query = (body as { query?: unknown } | null)?.query;
          if (typeof query !== "string") return send(400, { message: "VS402621: The WIQL query is missing." });
          let parsed: ParsedWiql;
          try {
            parsed = parseWiql(query);
          } catch (error) {
            return send(400, { message: `TF51006: The query statement is not valid: ${(error as Error).message}` });
          }
          let rows = allRows().filter(parsed.where);
          if (parsed.order) {
            const { field, desc } = parsed.order;
            rows = rows.sort(
              (a, b) =>
                (String(a[field]) < String(b[field]) ? -1 : String(a[field]) > String(b[field]) ? 1 : 0) * (desc ? -1 : 1),
            );
          }
          const top = url.searchParams.get("$top");
          if (top) rows = rows.slice(0, Number(top));
          return send(200, {
            queryType: "flat",
            queryResultType: "workItem",
            asOf: new Date().toISOString(),
            columns: [{ referenceName: "System.Id", name: "ID", url: `${base}/_apis/wit/fields/System.Id` }],
            workItems: rows.map((r) => ({
              id: r["System.Id"],
              url: itemUrl(String(r["System.TeamProject"]), Number(r["System.Id"])),
            })),
          });
        }
        const byIds = (ids: number[], fields?: string[]) => {
          const rows = allRows();
          const value = ids.flatMap((id) => rows.filter((r) => r["System.Id"] === id).map((r) => workItem(r, fields)));
          return send(200, { count: value.length, value });
        };
        if (req.method === "POST" && resource === "workitemsbatch") {
          const request = (body ?? {}) as { ids?: unknown; fields?: unknown };
          if (!Array.isArray(request.ids) || request.ids.length === 0 || request.ids.length > 200) {
            return send(400, { message: "VS403528: The ids parameter must hold between 1 and 200 work item ids." });
          }
          return byIds(request.ids.map(Number), Array.isArray(request.fields) ? request.fields.map(String) : undefined);
        }
        if (req.method === "GET" && resource === "workitems" && url.searchParams.get("ids")) {
          const ids = url.searchParams.get("ids")!.split(",").map(Number);
          return byIds(ids, url.searchParams.get("fields")?.split(","));
        }
      }
      return send(404, { message: "The resource cannot be found." });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${org}`;
  return {
    /** The organisation URL (AZURE_DEVOPS_ORG_URL). */
    url: base,
    requests,
    /** The WIQL texts received, in order. */
    wiqls: () =>
      requests.flatMap((r) => (r.path.endsWith("/_apis/wit/wiql") ? [String((r.body as { query: string }).query)] : [])),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type FakeAzureDevOps = Awaited<ReturnType<typeof startFakeAzureDevOps>>;
