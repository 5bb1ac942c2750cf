/** Pure helpers of the assignment form (SPEC §2, §5, §8): client guard throttle and error text. */
import { messages } from "../../core/messages";

/** A function that runs at most once every `ms` milliseconds; calls in between are dropped. */
export function throttled(fn: () => void, ms: number, now: () => number = Date.now) {
  let last = Number.NEGATIVE_INFINITY;
  return () => {
    const t = now();
    if (t - last < ms) return false;
    last = t;
    fn();
    return true;
  };
}

/** A save failure as one text: every field's message on its own line; SPEC §8 fallbacks. */
export function assignmentErrorText(error: unknown): string {
  if (!error) return messages.unknownError;
  const e = error as { message?: unknown; body?: { errors?: Record<string, unknown> } };
  const fieldErrors = e.body?.errors;
  if (fieldErrors && typeof fieldErrors === "object") {
    const lines = Object.values(fieldErrors)
      .flatMap((v) => (Array.isArray(v) ? v : [v]))
      .map((v) => (typeof v === "string" ? v : (v as { message?: string })?.message))
      .filter((v): v is string => Boolean(v));
    if (lines.length) return lines.join("\n");
  }
  return typeof e.message === "string" && e.message ? e.message : messages.somethingFailed;
}

export interface ClientWithProducts {
  id: number;
  name: string;
  client_product_catalogs?: { product_catalog_id: number; product_catalog_name: string }[];
}

export const hasProducts = (client: ClientWithProducts | undefined) => Boolean(client?.client_product_catalogs?.length);

export const productChoicesOf = (client: ClientWithProducts | undefined) =>
  (client?.client_product_catalogs ?? []).map((p) => ({ id: p.product_catalog_id, name: p.product_catalog_name }));
