/**
 * The import dialogs of the timesheet (SPEC §2 "Modals: import whole week, import one day, import CSV"):
 * a file chooser, an optional format link and confirmation step, progress while the call is pending (the
 * buttons are disabled, so nothing is sent twice) and the refusal's lines under their title.
 */
import {
  Alert,
  AlertTitle,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Link,
  Stack,
  Typography,
} from "@mui/material";
import { type ReactNode, useEffect, useState } from "react";
import { useTranslate } from "react-admin";
import { FileChooserButton } from "../../admin/common/FileChooserButton";
import { calendarMessages, importMessages, messages } from "../../core/messages";
import { ImportCallError } from "../../dataProvider";

const t = (key: string) => `sia.timesheet_import.${key}`;

/** The lines of a refused call (all of a CSV's bad lines) or its message. */
export const errorLines = (error: unknown): string[] => {
  if (error instanceof ImportCallError && error.lines.length) return error.lines;
  return [(error as Error)?.message || messages.importFailed];
};

export interface ImportFailure {
  title: string;
  lines: string[];
  /** Google refused or lacks the user's token: offer «Conectar Google Calendar». */
  connectGoogle?: boolean;
  /** The import went through but some events or lines of the file could not be read. */
  severity?: "error" | "warning";
  /** What the person can do about it (keep their changes over another person's). */
  action?: { label: string; run(): void };
  /** A second choice beside it (keep what the other window saved). */
  secondAction?: { label: string; run(): void };
}

/** Where the server starts the OAuth flow (server/modules/google/routes.ts); Google sends the user back. */
export const GOOGLE_CONNECT_URL = "/api/v1/google/connect";

/** Google's answers that a new connection fixes. */
export const needsGoogleConnection = (lines: string[]) =>
  lines.some((line) => line === importMessages.googleTokenMissing || line === calendarMessages.tokenExpired);

export function ImportFailureAlert({ failure, onClose }: { failure: ImportFailure | null; onClose?(): void }) {
  const translate = useTranslate();
  if (!failure) return null;
  return (
    <Alert
      severity={failure.severity ?? "error"}
      onClose={onClose}
      data-testid={failure.severity === "warning" ? "import-warnings" : "import-errors"}
      action={
        failure.connectGoogle ? (
          <Button color="inherit" size="small" href={GOOGLE_CONNECT_URL} data-testid="connect-google">
            {translate(t("connect_google"))}
          </Button>
        ) : failure.action ? (
          <>
            <Button color="inherit" size="small" onClick={failure.action.run} data-testid="failure-action">
              {failure.action.label}
            </Button>
            {failure.secondAction && (
              <Button color="inherit" size="small" onClick={failure.secondAction.run} data-testid="failure-second-action">
                {failure.secondAction.label}
              </Button>
            )}
          </>
        ) : undefined
      }
    >
      <AlertTitle>{failure.title}</AlertTitle>
      {failure.lines.length === 1 ? (
        failure.lines[0]
      ) : (
        <ul style={{ margin: 0, paddingLeft: 18 }}>
          {failure.lines.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </Alert>
  );
}

export interface FileImportDialogProps {
  open: boolean;
  title: string;
  /** accept attribute of the file input (".ics,text/calendar", ".csv,text/csv"). */
  accept: string;
  /** Whether the chosen file is of the expected kind; otherwise 'Archivo no válido o no seleccionado.'. */
  isValidFile(file: File): boolean;
  /** Asked before sending (CSV). */
  confirmText?: string;
  /** Title of the refusal's lines ('Error en importación' for CSV, 'Error en la importación' otherwise). */
  failureTitle: string;
  /** Extra content (format download link) and actions (other sources, a new activity). */
  children?: ReactNode;
  extraActions?: ReactNode;
  onClose(): void;
  /** Sends the file; a rejection is shown in the dialog, which stays open. */
  onImport(file: File): Promise<void>;
}

export function FileImportDialog(props: FileImportDialogProps) {
  const translate = useTranslate();
  const [file, setFile] = useState<File | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<ImportFailure | null>(null);
  const { open } = props;

  useEffect(() => {
    if (!open) return;
    setFile(null);
    setConfirming(false);
    setFailure(null);
    setPending(false);
  }, [open]);

  const send = async () => {
    if (pending) return;
    if (!file || !props.isValidFile(file)) {
      setConfirming(false);
      setFailure({ title: props.failureTitle, lines: [importMessages.fileInvalid] });
      return;
    }
    if (props.confirmText && !confirming) {
      setConfirming(true);
      return;
    }
    setConfirming(false);
    setFailure(null);
    setPending(true);
    try {
      await props.onImport(file);
    } catch (error) {
      setFailure({ title: props.failureTitle, lines: errorLines(error) });
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog open={open} onClose={pending ? undefined : props.onClose} maxWidth="sm" fullWidth data-testid="import-dialog">
      <DialogTitle>{props.title}</DialogTitle>
      {pending ? <LinearProgress data-testid="import-progress" /> : <Box sx={{ height: 4 }} />}
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
            <FileChooserButton
              disabled={pending}
              accept={props.accept}
              inputTestId="import-file"
              onFile={(chosen) => {
                setFile(chosen);
                setConfirming(false);
                setFailure(null);
              }}
            >
              {translate(t("choose_file"))}
            </FileChooserButton>
            <Typography variant="body2" color={file ? "text.primary" : "text.secondary"}>
              {file?.name ?? translate(t("no_file"))}
            </Typography>
          </Stack>
          {props.children}
          {confirming && props.confirmText && (
            <Alert severity="info" data-testid="import-confirm">
              {props.confirmText}
            </Alert>
          )}
          <ImportFailureAlert failure={failure} />
        </Stack>
      </DialogContent>
      <DialogActions>
        {props.extraActions}
        <Box sx={{ flex: 1 }} />
        <Button onClick={props.onClose} disabled={pending}>
          {translate(t("cancel"))}
        </Button>
        <Button variant="contained" onClick={send} disabled={pending}>
          {translate(t(confirming ? "confirm" : "import"))}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The CSV dialog's link to the format (GET activities/download_csv_format). */
export function FormatLink({ href }: { href: string }) {
  const translate = useTranslate();
  return (
    <Link href={href} download underline="hover" data-testid="csv-format-link">
      {translate(t("download_format"))}
    </Link>
  );
}

export const isIcsFile = (file: File) => /\.ics$/i.test(file.name) || file.type === "text/calendar";
export const isCsvFile = (file: File) =>
  /\.csv$/i.test(file.name) && (file.type === "" || /csv|excel|text\/plain/i.test(file.type));
