/**
 * The dialog of a state event (projects, invoices, quotations): a required comment, the event's own
 * fields, Cancelar/Confirmar. The caller parses its input with its zod schema and sends it through a
 * named dataProvider verb; the frame shows the comment's message, blocks double submission, toasts the
 * outcome in Spanish and refreshes the record.
 */
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField } from "@mui/material";
import { type ReactNode, useId, useState } from "react";
import { HttpError, useNotify, useRefresh, useTranslate } from "react-admin";
import { messages } from "../../core/messages";
import { useStaleRetry } from "./staleRetry";

/** What a zod safeParse answers (only what the dialog reads). */
export interface ParseOutcome {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}

/** The first message of a failed parse on `field` (at any depth: `quotation.audit_comment` too). */
export const issueOf = (result: ParseOutcome, field: string) =>
  result.success ? undefined : result.error?.issues.find((i) => i.path[i.path.length - 1] === field)?.message;

/** A 422 with field errors was already toasted per field by the data layer (SPEC §8). */
const alreadyToasted = (error: unknown) =>
  error instanceof HttpError && error.status === 422 && Boolean((error.body as { errors?: unknown } | undefined)?.errors);

export function TransitionDialog({
  title,
  subtitle,
  children,
  validate,
  send,
  onClose,
}: {
  title: string;
  subtitle?: ReactNode;
  /** The event's own fields, under the comment. */
  children?: ReactNode;
  /** Parses the whole input with this comment. */
  validate: (comment: string) => ParseOutcome;
  /** Sends it through a named dataProvider verb; answers the success toast. */
  send: (comment: string) => Promise<string>;
  onClose: () => void;
}) {
  const notify = useNotify();
  const translate = useTranslate();
  const refresh = useRefresh();
  const staleText = useStaleRetry();
  const titleId = useId();
  const [comment, setComment] = useState("");
  const [commentError, setCommentError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (busy) return;
    const parsed = validate(comment);
    setCommentError(issueOf(parsed, "audit_comment"));
    if (!parsed.success) return;
    setBusy(true);
    setError(undefined);
    try {
      const message = await send(comment);
      notify(message, { type: "success" });
      refresh();
      onClose();
    } catch (e) {
      const message = staleText(e, messages.somethingFailed);
      setError(message);
      if (!alreadyToasted(e)) notify(message, { type: "error" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} fullWidth maxWidth="sm" aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <DialogContent>
        {subtitle}
        {error && <Alert severity="error">{error}</Alert>}
        <TextField
          label={translate("sia.common.comment")}
          value={comment}
          onChange={(e) => setComment(e.target.value)}
          error={Boolean(commentError)}
          helperText={commentError ?? " "}
          multiline
          minRows={2}
          fullWidth
          margin="dense"
          required
          autoFocus
        />
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={busy}>
          {translate("sia.common.cancel")}
        </Button>
        <Button variant="contained" onClick={submit} disabled={busy}>
          {translate("sia.common.confirm")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
