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
import { messages } from "../../core/messages";
import { singularOf } from "../../core/resources";

/** Fields the server keeps for itself: their change is not news to the user. */
const BOOKKEEPING = new Set(["lock_version", "updated_at", "created_at"]);

/** The fields (of the record the form read) whose value on the server is now different. */
export function changedFields(read: Record<string, unknown>, current: Record<string, unknown>): string[] {
  return Object.keys(current).filter(
    (key) => !BOOKKEEPING.has(key) && key in read && JSON.stringify(read[key]) !== JSON.stringify(current[key]),
  );
}

const shown = (value: unknown) => {
  if (value === null || value === undefined || value === "") return "—";
  const text = typeof value === "object" ? JSON.stringify(value) : String(value);
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
};

interface StaleState {
  /** The record as the server has it now (from the 409), or null while there is no conflict. */
  conflict: RaRecord | null;
  clear: () => void;
  /** Save at this version next time (the user chose to overwrite). */
  overwriteAt: (version: number) => void;
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
  const overwrite = useRef<number | undefined>(undefined);

  const handleError = (error: unknown) => {
    const failure = error as { status?: number; message?: string; body?: Record<string, unknown> };
    if (failure?.status === 409) {
      setConflict(((failure.body?.[singularOf(resource)] as RaRecord | undefined) ?? { id: 0 }) as RaRecord);
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
      return { ...out, lock_version: overwrite.current ?? data.lock_version ?? options?.previousData?.lock_version };
    };

  const state: StaleState = {
    conflict,
    clear: () => setConflict(null),
    overwriteAt: (version) => {
      overwrite.current = version;
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
    if (!reloading || !record || !conflict || record.lock_version !== conflict.lock_version) return;
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
          onClick={() => {
            if (typeof conflict.lock_version === "number") state.overwriteAt(conflict.lock_version);
            state.clear();
            form.handleSubmit((values) => saveContext.save?.(values))();
          }}
        >
          {translate("sia.stale_version.overwrite")}
        </Button>
      </Stack>
    </Alert>
  );
}
