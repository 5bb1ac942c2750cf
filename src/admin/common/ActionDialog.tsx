/**
 * The frame of a dialog that does one thing to a record (a state event, an ETA extension, a notice): a
 * title, the caller's fields, Cancelar and the action's button. The frame runs the action once at a
 * time (buttons disabled and Escape ignored while it runs), shows a refused action's Spanish message in
 * place (a stale version reads the record again before saying so: staleRetry.ts) and keeps what was typed. Enter in a
 * one-line field confirms, as in any form; a multi-line comment keeps Enter for its new lines.
 *
 * The action decides what success means: it closes the dialog itself (or keeps it open to show an
 * answer), so a field error found before sending simply returns without closing.
 */
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, type ReactNode, useId, useState } from "react";
import { useTranslate } from "react-admin";
import { messages } from "../../core/messages";
import { isStale, useStaleReread } from "./staleRetry";

export interface ActionDialogProps {
  title: ReactNode;
  /** The dialog's fields and texts. */
  children?: ReactNode;
  /** Runs the action; a throw is shown in the dialog. */
  onConfirm: () => unknown;
  onClose: () => void;
  /** Translate keys of the two buttons. */
  confirmLabel?: string;
  cancelLabel?: string;
  /** Whether the action's button is offered (a notice already sent offers only Cerrar). */
  confirmable?: boolean;
  /**
   * Why the action can no longer be taken (another user changed the record meanwhile): said in place of
   * any earlier refusal, and the action's button is no longer offered.
   */
  unavailable?: string;
  /** The message when a refusal brings none of its own. */
  errorFallback?: string;
  /** Told of a refusal besides showing it (a toast, say). */
  onError?: (error: unknown, message: string) => void;
  /**
   * The version of the record as the screen shows it. After a conflict the dialog says nothing until
   * the record read again has arrived (its version moved): only then does it know whether to invite
   * confirming again or to say the action is no longer possible, and it says just that one.
   */
  version?: unknown;
}

export function ActionDialog({
  title,
  children,
  onConfirm,
  onClose,
  confirmLabel = "ra.action.confirm",
  cancelLabel = "ra.action.cancel",
  confirmable: offered = true,
  unavailable,
  errorFallback = messages.unexpected,
  onError,
  version,
}: ActionDialogProps) {
  const translate = useTranslate();
  const staleText = useStaleReread();
  const queryClient = useQueryClient();
  const titleId = useId();
  const formId = useId();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // The version the conflict was met at, while the record is read again.
  const [staleAt, setStaleAt] = useState<{ version: unknown } | null>(null);
  const rereading = staleAt !== null && staleAt.version === version;
  const confirmable = offered && !unavailable && !rereading;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || !confirmable) return;
    setBusy(true);
    setError(undefined);
    setStaleAt(null);
    try {
      await onConfirm();
    } catch (e) {
      if (isStale(e) && version !== undefined) {
        setStaleAt({ version });
        await queryClient.invalidateQueries();
        return;
      }
      const message = await staleText(e, errorFallback);
      setError(message);
      onError?.(e, message);
    } finally {
      setBusy(false);
    }
  };
  const shownError = rereading ? undefined : staleAt ? messages.staleVersionRetry : error;

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        <form id={formId} onSubmit={submit} noValidate>
          {unavailable ? (
            <Alert severity="warning" sx={{ mb: 1 }}>
              {unavailable}
            </Alert>
          ) : (
            shownError && (
              <Alert severity="error" sx={{ mb: 1 }}>
                {shownError}
              </Alert>
            )
          )}
          {children}
        </form>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {/* With no action left to take, the only button closes: not «Cancelar», next to «Cancelar factura». */}
          {translate(offered && !unavailable ? cancelLabel : "ra.action.close")}
        </Button>
        {confirmable && (
          <Button type="submit" form={formId} variant="contained" disabled={busy}>
            {translate(confirmLabel)}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
