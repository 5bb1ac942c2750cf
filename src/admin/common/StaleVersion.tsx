/**
 * A stale save (409): another user saved the record while this form was open. The form keeps what the
 * user typed; a notice lists the fields whose saved values changed meanwhile (the server's record, sent
 * with the 409, against the one the form read) and lets the user reload them (discarding their edits) or
 * save theirs over them deliberately, at the version the server now has.
 */
import { Alert, Box, Button, Stack } from "@mui/material";
import { type ReactNode, useEffect, useRef, useState } from "react";
import {
  type RaRecord,
  type TransformData,
  useNotify,
  useRecordContext,
  useRefresh,
  useResourceContext,
  useSaveContext,
  useTranslate,
} from "react-admin";
import { useFormContext } from "react-hook-form";
import {
  BOOKKEEPING_FIELDS as BOOKKEEPING,
  changedSince,
  differingFrom,
  mineOnTop,
  sameValue as same,
} from "../../core/changedFields";
import { messages } from "../../core/messages";
import { apiResourceOf, singularOf } from "../../core/resources";

const isPlainObject = (v: unknown) => !!v && typeof v === "object" && !Array.isArray(v);

/**
 * The fields (of the record the form read) whose value on the server is now different. Sub-objects the
 * server derives (a project's `project` summary, a transition's `event`) are not fields a person edits; an
 * id whose name field also changed is told once, by its name.
 */
export function changedFields(read: Record<string, unknown>, current: Record<string, unknown>): string[] {
  const changed = Object.keys(current).filter(
    (key) =>
      !BOOKKEEPING.has(key) &&
      key in read &&
      !isPlainObject(read[key]) &&
      !isPlainObject(current[key]) &&
      !same(read[key], current[key]),
  );
  return changed.filter((key) => !(key.endsWith("_id") && changed.includes(`${key.slice(0, -3)}_name`)));
}

/** A value as a person reads it: rows of a list by their values (ids left out), long text cut. */
export const shown = (value: unknown): string => {
  if (value === null || value === undefined || value === "") return "—";
  if (Array.isArray(value)) {
    if (!value.length) return "—";
    return value
      .map((row) =>
        isPlainObject(row)
          ? Object.entries(row as Record<string, unknown>)
              .filter(([k, v]) => k !== "id" && !k.endsWith("_id") && !BOOKKEEPING.has(k) && v !== null && v !== "")
              .map(([, v]) => shown(v))
              .join(" / ") || "—"
          : shown(row),
      )
      .join("; ");
  }
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

/**
 * What «Guardar mis cambios» sends: the record as the server has it now, with only the fields the person
 * changed in the form (their value differs from the record the form read) taken from the form. A field
 * someone else changed and this person did not touch keeps the other person's value, nested rows included.
 */
export function mineOverTheirs(
  values: Record<string, unknown>,
  read: Record<string, unknown>,
  current: Record<string, unknown>,
): Record<string, unknown> {
  return mineOnTop(current, values, changedSince(read, values));
}

/** The record in a 409's body: under the resource's singular, else the one object that has a version. */
export function conflictRecord(body: Record<string, unknown> | undefined, singular: string): RaRecord | null {
  if (!body) return null;
  const named = body[singular];
  if (isPlainObject(named)) return named as RaRecord;
  const found = Object.values(body).find((v) => isPlainObject(v) && typeof (v as RaRecord).lock_version === "number");
  return (found as RaRecord | undefined) ?? null;
}

interface StaleState {
  /** The record as the server has it now (from the 409), or null while there is no conflict. */
  conflict: RaRecord | null;
  clear: () => void;
  /**
   * Save at the server's version next time (the user chose to overwrite), sending only what differs
   * from the server's record: this person's changes.
   */
  overwrite: (current: RaRecord) => void;
}

/**
 * For an Edit frame: its mutation's onError (a 409 opens the notice; anything else goes to `onError` or
 * the usual toast), a transform that always sends the version (a screen's own transform may drop it),
 * and the state the notice reads.
 */
export function useStaleVersion(onError?: (error: unknown) => void, resourceName?: string) {
  const notify = useNotify();
  const resource = useResourceContext({ resource: resourceName }) as string;
  const [conflict, setConflict] = useState<RaRecord | null>(null);
  const overwrite = useRef<RaRecord | undefined>(undefined);

  const handleError = (error: unknown) => {
    const failure = error as { status?: number; message?: string; body?: Record<string, unknown> };
    if (failure?.status === 409) {
      const current = conflictRecord(failure.body, singularOf(apiResourceOf(resource)));
      // Without the record (an older server) the next save still must not resend the old version: it
      // reloads instead.
      setConflict(current ?? ({ id: 0 } as RaRecord));
      notify(messages.staleVersion, { type: "warning" });
      return;
    }
    if (onError) return onError(error);
    notify(typeof error === "string" ? error : failure?.message || "ra.notification.http_error", { type: "error" });
  };

  const withVersion =
    (transform?: TransformData): TransformData =>
    async (data, options) => {
      const out = transform ? await transform(data, options) : data;
      // The overwrite is for the one save the user chose it for: a later save carries the version read.
      const current = overwrite.current;
      overwrite.current = undefined;
      if (current) return { ...differingFrom(out, current), lock_version: current.lock_version };
      return { ...out, lock_version: data.lock_version ?? options?.previousData?.lock_version };
    };

  const state: StaleState = {
    conflict,
    clear: () => setConflict(null),
    overwrite: (current) => {
      overwrite.current = current;
    },
  };
  return { onError: handleError, withVersion, state };
}

/** The notice, inside the form (it reads and resets the form's values). */
export function StaleVersionNotice({ state }: { state: StaleState }): ReactNode {
  const translate = useTranslate();
  const resource = useResourceContext() as string;
  const record = useRecordContext();
  const refresh = useRefresh();
  const form = useFormContext();
  const saveContext = useSaveContext();
  const [reloading, setReloading] = useState(false);
  const { conflict } = state;

  // Once the reloaded record arrives, the form shows it (what the user typed is discarded, as asked).
  useEffect(() => {
    if (!reloading || !record || !conflict) return;
    if (typeof conflict.lock_version === "number" && record.lock_version !== conflict.lock_version) return;
    form.reset(record);
    setReloading(false);
    state.clear();
  }, [reloading, record, conflict, form, state]);

  if (!conflict) return null;
  const fields = record ? changedFields(record, conflict) : [];
  const label = (field: string) => translate(`resources.${resource}.fields.${field}`, { _: field });

  return (
    <Alert severity="warning" sx={{ mb: 2, width: "100%" }} data-testid="stale-version">
      <Box>{messages.staleVersion}</Box>
      {fields.length ? (
        <Box sx={{ mt: 1 }}>
          {translate("sia.stale_version.changed")}
          <ul>
            {fields.map((field) => (
              <li key={field}>
                <strong>{label(field)}</strong>: {shown(record?.[field])} → {shown(conflict[field])}
              </li>
            ))}
          </ul>
        </Box>
      ) : (
        <Box sx={{ mt: 1 }}>{translate("sia.stale_version.none")}</Box>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button
          size="small"
          variant="outlined"
          onClick={() => {
            setReloading(true);
            refresh();
          }}
        >
          {translate("sia.stale_version.reload")}
        </Button>
        <Button
          size="small"
          variant="contained"
          color="warning"
          disabled={typeof conflict.lock_version !== "number"}
          onClick={() => {
            if (typeof conflict.lock_version !== "number") return;
            state.overwrite(conflict);
            // What this person changed is judged against what the form started from, not against a
            // record read again since: only those fields go over the server's current record.
            const base = (form.formState.defaultValues ?? record ?? {}) as Record<string, unknown>;
            state.clear();
            form.handleSubmit((values) => saveContext.save?.(mineOverTheirs(values, base, conflict)))();
          }}
        >
          {translate("sia.stale_version.overwrite")}
        </Button>
      </Stack>
    </Alert>
  );
}
