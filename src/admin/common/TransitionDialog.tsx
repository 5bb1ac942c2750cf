/**
 * The dialog of a state event (projects, invoices, quotations), on the ActionDialog frame: a required
 * comment, the event's own fields, Cancelar/Confirmar. The caller parses its input with its zod schema
 * and sends it through a named dataProvider verb; this dialog shows the comment's message, toasts the
 * outcome in Spanish and refreshes the record (the frame blocks double submission and shows refusals).
 */
import { TextField } from "@mui/material";
import { type ReactNode, useState } from "react";
import { HttpError, useNotify, useRefresh, useTranslate } from "react-admin";
import { messages } from "../../core/messages";
import { ActionDialog } from "./ActionDialog";
import { isStale } from "./staleRetry";

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
  available = true,
  version,
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
  /** Whether the record, as last read, still permits the event (another user may have changed its state). */
  available?: boolean;
  /** The record's version as shown (see ActionDialog). */
  version?: unknown;
}) {
  const translate = useTranslate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [comment, setComment] = useState("");
  const [commentError, setCommentError] = useState<string>();

  const confirm = async () => {
    const parsed = validate(comment);
    setCommentError(issueOf(parsed, "audit_comment"));
    if (!parsed.success) return;
    const message = await send(comment);
    notify(message, { type: "success" });
    refresh();
    onClose();
  };

  return (
    <ActionDialog
      title={title}
      onConfirm={confirm}
      onClose={onClose}
      errorFallback={messages.somethingFailed}
      version={version}
      unavailable={available ? undefined : translate("sia.action_dialog.event_gone")}
      onError={(e, message) => {
        // A conflict is told once, in the dialog, as the record read again shows it (still possible or not).
        if (!alreadyToasted(e) && !isStale(e)) notify(message, { type: "error" });
      }}
    >
      {/* «from → to» from a state the event no longer leaves would describe a change that cannot happen. */}
      {available && subtitle}
      <TextField
        label={translate("sia.action_dialog.comment")}
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
    </ActionDialog>
  );
}
