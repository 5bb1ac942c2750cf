/**
 * A question that needs a reason before it is confirmed (returning a week to its employee, reopening an
 * approved one): the confirm button stays off until something is written, and the reason is sent trimmed.
 */
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, TextField } from "@mui/material";
import { useId, useState } from "react";
import { useTranslate } from "react-admin";
import { RETURN_REASON_MAX } from "../../core/schemas/week_review";

export function ReasonDialog(props: {
  open: boolean;
  title: string;
  /** The question, already translated. */
  text: string;
  confirm: string;
  busy?: boolean;
  onConfirm(reason: string): void;
  onClose(): void;
}) {
  const translate = useTranslate();
  const [reason, setReason] = useState("");
  const titleId = useId();
  const close = () => {
    setReason("");
    props.onClose();
  };
  const trimmed = reason.trim();
  return (
    <Dialog open={props.open} onClose={close} aria-labelledby={titleId} fullWidth maxWidth="sm">
      <DialogTitle id={titleId}>{translate(props.title)}</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>{props.text}</DialogContentText>
        <TextField
          autoFocus
          fullWidth
          multiline
          minRows={3}
          required
          label={translate("sia.reviews.reason")}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          helperText={translate("sia.reviews.reason_count", { count: reason.length, max: RETURN_REASON_MAX })}
          slotProps={{ htmlInput: { maxLength: RETURN_REASON_MAX } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>{translate("sia.common.cancel")}</Button>
        <Button
          variant="contained"
          disabled={!trimmed || props.busy}
          onClick={() => {
            props.onConfirm(trimmed);
            setReason("");
          }}
        >
          {translate(props.confirm)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
