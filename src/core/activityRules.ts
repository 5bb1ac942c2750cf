/**
 * The week's rules of activities, once for the server and the browser: what makes a week, as it will be
 * after a change, refusable. Each refusal is a stable `code` (what the screen acts on), the `field` it is
 * about ("base" for the activity as a whole) and the Spanish `message` of src/core/messages.ts (what the
 * person reads). The server's week save and single routes run `weekIssues` over the final state of the
 * week, adding what only the database knows (references, frozen periods, stored rows); the browser's
 * draft runs the same function as a pre-check over what it shows.
 */
import { messages } from "./messages";
import { localDate } from "./week";

/** Every rule an activity can break, by its stable code. */
export const RULE_CODES = [
  /** Two activities of one employee share time. */
  "overlap",
  /** Its day lies in a closed week or a frozen month. */
  "frozen",
  /** Hours on a day after today (only vacation is planned ahead, unless an administrator allows it). */
  "future",
  /** The times: zero length, ends before it starts, past midnight, seconds. */
  "zero_length",
  "ends_before_start",
  "past_midnight",
  "whole_minutes",
  /** A reference that does not exist. */
  "reference",
  "employee_inactive",
  "project_not_current",
  "excluded_customer",
  "product_not_selectable",
  /** Written for another employee by someone who may only write their own. */
  "own_only",
  /** An update or deletion of an activity that no longer exists, or named twice in one save. */
  "missing",
  "repeated",
  /** An activity saved again under its import key with other content. */
  "import_key_taken",
  /** The version read is no longer the stored one. */
  "stale",
  /** Any other field rule of the activity's schema (required, format, length). */
  "invalid",
] as const;
export type RuleCode = (typeof RULE_CODES)[number];

/** One refusal of one activity. */
export interface RuleIssue {
  code: RuleCode;
  /** The field it is about; "base" for the activity as a whole. */
  field: string;
  message: string;
}

/** A refusal of one item of the week save ("0", "updates.1", "deletions.0"); no item on a single route. */
export interface ItemIssue extends RuleIssue {
  item?: string;
}

/** What a move or a resize can cure: the rules about the activity's times and no other. */
export const MOVE_CURABLE: ReadonlySet<RuleCode> = new Set<RuleCode>([
  "overlap",
  "zero_length",
  "ends_before_start",
  "past_midnight",
  "whole_minutes",
]);

export const isRuleCode = (value: unknown): value is RuleCode =>
  typeof value === "string" && (RULE_CODES as readonly string[]).includes(value);

/** One activity of the week as it will be, as far as the week's rules read it. */
export interface WeekActivity {
  employee_id: number;
  begins_at: Date;
  ends_at: Date;
  action_type: string;
}

/** A closed week or frozen month of an employee (dates inclusive, YYYY-MM-DD). */
export interface FrozenSpan {
  employee_id: number;
  starts_on: string;
  ends_on: string;
}

export interface WeekFacts {
  /** Stored activities this change leaves as they are: checked against, never refused themselves. */
  unchanged?: readonly Pick<WeekActivity, "employee_id" | "begins_at" | "ends_at">[];
  frozen?: readonly FrozenSpan[];
  /** Today's local date; the future rule is not checked without it (the draft's pre-check). */
  today?: string;
  allowFuture?: boolean;
}

/**
 * The week's rules over the activities a change writes (`changed`, in the week as it will be with
 * `facts.unchanged`): one list of issues per changed activity, in order, empty when it may be written.
 */
export function weekIssues(changed: readonly WeekActivity[], facts: WeekFacts = {}): RuleIssue[][] {
  const out: RuleIssue[][] = changed.map(() => []);
  const add = (i: number, issue: RuleIssue) => {
    if (!out[i].some((x) => x.code === issue.code && x.field === issue.field)) out[i].push(issue);
  };
  for (const [i, a] of changed.entries()) {
    const day = localDate(a.begins_at);
    if (facts.today && day > facts.today && a.action_type !== "vacation" && !facts.allowFuture)
      add(i, { code: "future", field: "base", message: messages.activityFutureDay(day) });
    if (facts.frozen?.some((f) => f.employee_id === a.employee_id && f.starts_on <= day && f.ends_on >= day))
      add(i, { code: "frozen", field: "base", message: messages.activityFrozen });
    if (facts.unchanged?.some((s) => s.employee_id === a.employee_id && overlapping(s, a)))
      add(i, { code: "overlap", field: "base", message: messages.activityConflict });
  }
  for (const [i, j] of overlappingPairs(changed)) {
    if (changed[i].employee_id !== changed[j].employee_id) continue;
    for (const k of [i, j]) add(k, { code: "overlap", field: "base", message: messages.activityConflict });
  }
  return out;
}

type Span = { begins_at: Date; ends_at: Date };
const overlapping = (a: Span, b: Span) =>
  a.begins_at.getTime() < b.ends_at.getTime() && b.begins_at.getTime() < a.ends_at.getTime();

/** The index pairs of spans that share time (half-open: one ending at 10:00 and one starting then do not). */
export function overlappingPairs(spans: readonly Span[]): [number, number][] {
  const order = spans.map((_, i) => i).sort((a, b) => spans[a].begins_at.getTime() - spans[b].begins_at.getTime());
  const pairs: [number, number][] = [];
  for (let x = 0; x < order.length; x++) {
    for (let y = x + 1; y < order.length; y++) {
      const a = spans[order[x]];
      const b = spans[order[y]];
      if (b.begins_at.getTime() >= a.ends_at.getTime()) break;
      if (a.ends_at.getTime() > a.begins_at.getTime() && b.ends_at.getTime() > b.begins_at.getTime())
        pairs.push([order[x], order[y]]);
    }
  }
  return pairs;
}

/** Issues as SPEC §8's {field: [messages]} (each message once per field). */
export function fieldErrorsOf(issues: readonly RuleIssue[], prefix = ""): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { field, message } of issues) {
    const text = `${prefix}${message}`;
    if (!out[field]?.includes(text)) out[field] = [...(out[field] ?? []), text];
  }
  return out;
}
