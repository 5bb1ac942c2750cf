/**
 * Calendar-event titles (SPEC §5 "Calendar-import titles"), isomorphic and pure: no I/O. The import
 * routes load the lookup tables once per import (server/modules/calendar_imports/resolver.ts) and hand
 * them here.
 *
 * 1. parseTitle() splits a title by '|' and classifies it:
 *    P|project code|type|description (4 parts), S|client|product|type|description (5),
 *    PC|client or prospect|product|description (4), AS|type|description (3), RH|description (2).
 *    A known prefix with the wrong number of parts falls back to an internal activity to review.
 *    Any other title goes through the generic parser: a vacation word ('vacaciones', 'incapacidad'),
 *    a known project code or a known client name inside free text; anything else is an internal
 *    activity to review.
 * 2. resolveTitle() resolves what the title names against the lookup tables — clients, prospects,
 *    projects and products by code or by name, types by their code — ignoring case and accents, and
 *    says (in Spanish) what did not resolve. An event is valid only if everything resolves and a
 *    description exists.
 */
import { type ActionType, VACATION_DESCRIPTION } from "./constants";
import { importMessages, messages } from "./messages";

/** Lower case, no accents, single spaces: 'Análisis  Clínico ' → 'analisis clinico'. */
export const normalizeKey = (value: string | null | undefined) =>
  (value ?? "").normalize("NFD").replace(/\p{M}/gu, "").toLowerCase().replace(/\s+/g, " ").trim();

export type TitleFormat = "P" | "S" | "PC" | "AS" | "RH" | "vacation" | "generic" | "untitled";

export interface ParsedTitle {
  format: TitleFormat;
  actionType: ActionType;
  /** P: the project code (or name); generic: the project code found in the text. */
  project: string | null;
  /** S: the client; PC: the client or prospect; generic: the client name found in the text. */
  owner: string | null;
  /** S, PC: the product (code or name). */
  product: string | null;
  /** P, S, AS: the activity type code (AN, DE, …). */
  typeCode: string | null;
  description: string;
  /** Problems of the title's shape (wrong number of parts, an untitled event). */
  problems: string[];
}

/** The number of '|' parts each summary code needs (SPEC §5). */
export const TITLE_PARTS = { P: 4, S: 5, PC: 4, AS: 3, RH: 2 } as const;
export const TITLE_SHAPES: Record<keyof typeof TITLE_PARTS, string> = {
  P: "P|código de proyecto|tipo|descripción",
  S: "S|cliente|producto|tipo|descripción",
  PC: "PC|cliente o prospecto|producto|descripción",
  AS: "AS|tipo|descripción",
  RH: "RH|descripción",
};

const titleMessages = importMessages;

const MIN_CODE_IN_TEXT = 3;
const MIN_NAME_IN_TEXT = 4;
const VACATION_WORDS = /\b(vacaciones|vacacion|incapacidad|incapacidades)\b/;

const parsed = (format: TitleFormat, actionType: ActionType, fields: Partial<ParsedTitle> = {}): ParsedTitle => ({
  format,
  actionType,
  project: null,
  owner: null,
  product: null,
  typeCode: null,
  description: "",
  problems: [],
  ...fields,
});

/** Lookup tables the generic parser and the resolver read (loaded once per import). */
export interface TitleLookups {
  clients: ReadonlyArray<{ id: number; code: string | null; name: string }>;
  prospects: ReadonlyArray<{ id: number; name: string }>;
  projects: ReadonlyArray<{
    id: number;
    code: string;
    name: string;
    clientId: number | null;
    clientName: string | null;
    productId: number | null;
    /** The state's label when the project no longer takes new activities (cancelled, finished…). */
    closedState?: string | null;
  }>;
  /** Only the selectable products (SIA, Framework and SICAJAS are not). */
  products: ReadonlyArray<{ id: number; code: string | null; name: string }>;
  activityTypes: ReadonlyArray<{ id: number; code: string }>;
  /** The customer support activities may not use (app settings). */
  supportExcludedClientId: number | null;
}

const escapeRegExp = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** True when `needle` appears in `haystack` as whole words (both already normalised). */
const containsWords = (haystack: string, needle: string) =>
  needle.length > 0 && new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(needle)}($|[^\\p{L}\\p{N}])`, "u").test(haystack);

/**
 * Generic parser of a title without a summary code: a vacation word, else a known project code inside
 * the text (project activity: the type is still missing), else a known client name (support activity: the
 * product is still missing), else an internal activity to review. The longest match wins.
 */
export function parseGenericTitle(title: string, lookups?: Pick<TitleLookups, "projects" | "clients">): ParsedTitle {
  const text = title.trim();
  const key = normalizeKey(text);
  if (VACATION_WORDS.test(key)) return parsed("vacation", "vacation", { description: VACATION_DESCRIPTION });
  const byLength = <T>(items: ReadonlyArray<T>, value: (item: T) => string) =>
    [...items].map((item) => ({ item, key: normalizeKey(value(item)) })).sort((a, b) => b.key.length - a.key.length);
  // Very short codes and names ('SA', 'TI') would match ordinary words: not recognised in free text.
  const project = byLength(lookups?.projects ?? [], (p) => p.code).find(
    (p) => p.key.length >= MIN_CODE_IN_TEXT && containsWords(key, p.key),
  );
  if (project)
    return parsed("generic", "project", {
      project: project.item.code,
      description: text,
      problems: [titleMessages.projectFoundNeedsType],
    });
  const client = byLength(lookups?.clients ?? [], (c) => c.name).find(
    (c) => c.key.length >= MIN_NAME_IN_TEXT && containsWords(key, c.key),
  );
  if (client)
    return parsed("generic", "support", {
      owner: client.item.name,
      description: text,
      problems: [titleMessages.clientFoundNeedsProduct],
    });
  return parsed("generic", "internal", { description: text, problems: [titleMessages.unrecognised] });
}

/** Splits and classifies a title (SPEC §5). The lookups feed the generic parser only. */
export function parseTitle(title: string | null | undefined, lookups?: Pick<TitleLookups, "projects" | "clients">): ParsedTitle {
  const text = (title ?? "").trim();
  if (!text) return parsed("untitled", "internal", { problems: [titleMessages.untitled] });
  if (!text.includes("|")) return parseGenericTitle(text, lookups);
  const parts = text.split("|").map((p) => p.trim());
  const code = parts[0].toUpperCase();
  if (!(code in TITLE_PARTS)) return parseGenericTitle(text, lookups);
  const format = code as keyof typeof TITLE_PARTS;
  if (parts.length !== TITLE_PARTS[format]) {
    return parsed(format, "internal", {
      description: parts.slice(1).filter(Boolean).join(" | "),
      problems: [titleMessages.wrongParts(format, TITLE_SHAPES[format], TITLE_PARTS[format], parts.length)],
    });
  }
  const or = (v: string) => v || null;
  switch (format) {
    case "P":
      return parsed("P", "project", { project: or(parts[1]), typeCode: or(parts[2]), description: parts[3] });
    case "S":
      return parsed("S", "support", {
        owner: or(parts[1]),
        product: or(parts[2]),
        typeCode: or(parts[3]),
        description: parts[4],
      });
    case "PC":
      return parsed("PC", "quote", { owner: or(parts[1]), product: or(parts[2]), description: parts[3] });
    case "AS":
      return parsed("AS", "internal", { typeCode: or(parts[1]), description: parts[2] });
    case "RH":
      return parsed("RH", "rh", { description: parts[1] });
  }
}

/** What a parsed title resolved to: the LocalEvent's mapping fields plus validity and errors. */
export interface ResolvedTitle {
  actionType: ActionType;
  description: string;
  clientId: number | null;
  clientName: string | null;
  ownerableType: "Client" | "Prospect" | null;
  activityTypeCatalogId: number | null;
  projectId: number | null;
  projectName: string | null;
  project_code: string | null;
  productId: number | null;
  isValidate: boolean;
  errors: string[];
}

/** Indexes of the lookup tables by normalised code and name (build once per import). */
export function indexLookups(lookups: TitleLookups) {
  const index = <T>(items: ReadonlyArray<T>, ...keys: ((item: T) => string | null)[]) => {
    const map = new Map<string, T>();
    // Codes first, then names: a code wins over another record's identical name.
    for (const key of keys)
      for (const item of items) {
        const k = normalizeKey(key(item));
        if (k && !map.has(k)) map.set(k, item);
      }
    return map;
  };
  return {
    lookups,
    clients: index(
      lookups.clients,
      (c) => c.code,
      (c) => c.name,
    ),
    prospects: index(lookups.prospects, (p) => p.name),
    projects: index(
      lookups.projects,
      (p) => p.code,
      (p) => p.name,
    ),
    products: index(
      lookups.products,
      (p) => p.code,
      (p) => p.name,
    ),
    types: index(lookups.activityTypes, (t) => t.code),
  };
}
export type LookupIndex = ReturnType<typeof indexLookups>;

const empty = (actionType: ActionType, description: string): ResolvedTitle => ({
  actionType,
  description,
  clientId: null,
  clientName: null,
  ownerableType: null,
  activityTypeCatalogId: null,
  projectId: null,
  projectName: null,
  project_code: null,
  productId: null,
  isValidate: false,
  errors: [],
});

/** Resolves what a parsed title names; valid when everything resolves and a description exists. */
export function resolveTitle(title: ParsedTitle, index: LookupIndex): ResolvedTitle {
  const out = empty(title.actionType, title.description.trim());
  const errors = [...title.problems];
  const find = <T>(map: Map<string, T>, value: string | null) => (value ? map.get(normalizeKey(value)) : undefined);
  // The activity type is required where the form requires it (projects) and optional elsewhere
  // (src/core/schemas/activity.ts): an S or AS title without one is not red, one naming an unknown type is.
  const needType = (required: boolean) => {
    if (!title.typeCode) return required ? errors.push(titleMessages.typeMissing) : undefined;
    const type = find(index.types, title.typeCode);
    if (type) out.activityTypeCatalogId = type.id;
    else errors.push(titleMessages.typeNotFound(title.typeCode));
  };
  const needProduct = () => {
    if (!title.product) return title.format === "generic" ? undefined : errors.push(titleMessages.productMissing);
    const product = find(index.products, title.product);
    if (product) out.productId = product.id;
    else errors.push(titleMessages.productNotFound(title.product));
  };
  switch (title.actionType) {
    case "project": {
      const project = find(index.projects, title.project);
      if (project) {
        Object.assign(out, {
          projectId: project.id,
          projectName: project.name,
          project_code: project.code,
          clientId: project.clientId,
          clientName: project.clientName,
          ownerableType: project.clientId ? "Client" : null,
          productId: project.productId,
        });
        // The project is named, but no longer takes time: shown red with why, as the server would refuse it.
        if (project.closedState) errors.push(messages.activityProjectNotCurrent(project.code, project.closedState));
      } else errors.push(title.project ? titleMessages.projectNotFound(title.project) : titleMessages.projectMissing);
      if (title.format === "P") needType(true);
      break;
    }
    case "support": {
      const client = find(index.clients, title.owner);
      if (client && client.id === index.lookups.supportExcludedClientId)
        errors.push(titleMessages.clientExcludedFromSupport(client.name));
      else if (client) Object.assign(out, { clientId: client.id, clientName: client.name, ownerableType: "Client" });
      else errors.push(title.owner ? titleMessages.clientNotFound(title.owner) : titleMessages.clientMissing);
      needProduct();
      if (title.format === "S") needType(false);
      break;
    }
    case "quote": {
      const client = find(index.clients, title.owner);
      const prospect = client ? undefined : find(index.prospects, title.owner);
      if (client) Object.assign(out, { clientId: client.id, clientName: client.name, ownerableType: "Client" });
      else if (prospect) Object.assign(out, { clientId: prospect.id, clientName: prospect.name, ownerableType: "Prospect" });
      else errors.push(title.owner ? titleMessages.ownerNotFound(title.owner) : titleMessages.ownerMissing);
      needProduct();
      break;
    }
    case "internal":
      if (title.format === "AS") needType(false);
      break;
    case "rh":
    case "vacation":
      break;
  }
  if (title.actionType === "vacation") out.description = VACATION_DESCRIPTION;
  if (!out.description && title.format !== "untitled") errors.push(titleMessages.descriptionMissing);
  out.errors = [...new Set(errors)];
  out.isValidate = out.errors.length === 0;
  return out;
}
