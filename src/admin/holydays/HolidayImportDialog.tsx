/** Holiday CSV import (SPEC §2, §5, §8): file chooser, format download, confirmation, one submission at a time. */
import DownloadIcon from "@mui/icons-material/Download";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  Link,
  List,
  ListItem,
  Stack,
  Typography,
} from "@mui/material";
import { useRef, useState } from "react";
import { useDataProvider, useNotify, useRefresh, useTranslate } from "react-admin";
import { messages } from "../../core/messages";
import { HolidayImportError, type SiaDataProvider } from "../../dataProvider";
import { FileChooserButton } from "../common/FileChooserButton";
import { RichText } from "../common/RichText";

const isCsv = (file: File) => /\.csv$/i.test(file.name);

export function HolidayImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const refresh = useRefresh();
  const [file, setFile] = useState<File | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [rows, setRows] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const sending = useRef(false);

  const reset = () => {
    setFile(null);
    setConfirming(false);
    setRows([]);
    setError(null);
  };
  const close = () => {
    if (busy) return;
    reset();
    onClose();
  };

  const askConfirmation = () => {
    setRows([]);
    if (!file || !isCsv(file)) {
      setError(messages.holydaysFileInvalid);
      notify(messages.holydaysFileInvalid, { type: "error" });
      return;
    }
    setError(null);
    setConfirming(true);
  };

  const send = async () => {
    if (!file || sending.current) return;
    sending.current = true;
    setBusy(true);
    try {
      const result = await dataProvider.importHolidays(file);
      if (result.imported === 0) {
        notify(result.warning ?? messages.holydaysAllRegistered, { type: "warning" });
      } else {
        notify(messages.holydaysImported(result.imported, result.skipped), { type: "success" });
      }
      refresh();
      reset();
      onClose();
    } catch (e) {
      const message = (e as Error).message;
      setConfirming(false);
      setError(message);
      setRows(e instanceof HolidayImportError ? e.rows : []);
      notify(message, { type: "error" });
    } finally {
      sending.current = false;
      setBusy(false);
    }
  };

  const downloadFormat = async (event: React.MouseEvent) => {
    event.preventDefault();
    try {
      await dataProvider.downloadHolidayFormat();
    } catch (e) {
      notify((e as Error).message, { type: "error" });
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="holiday-import-title">
      <DialogTitle id="holiday-import-title">{translate("sia.holydays.import_title")}</DialogTitle>
      <DialogContent>
        {confirming && file ? (
          <DialogContentText>
            <RichText message="sia.holydays.confirm" values={{ name: <strong>{file.name}</strong> }} />
          </DialogContentText>
        ) : (
          <Stack spacing={2}>
            <DialogContentText>
              <RichText message="sia.holydays.format" values={{ columns: <code>fecha,nombre</code> }} />
            </DialogContentText>
            <Link href="#" onClick={downloadFormat} sx={{ display: "inline-flex", alignItems: "center", gap: 0.5 }}>
              <DownloadIcon fontSize="small" /> {translate("sia.holydays.download_format")}
            </Link>
            <FileChooserButton
              startIcon={<UploadFileIcon />}
              sx={{ alignSelf: "flex-start" }}
              accept=".csv,text/csv"
              inputLabel={translate("sia.holydays.file_input")}
              onFile={(chosen) => {
                setFile(chosen);
                setError(null);
                setRows([]);
              }}
            >
              {translate("sia.holydays.choose_file")}
            </FileChooserButton>
            <Typography variant="body2">
              {file ? translate("sia.holydays.file", { name: file.name }) : translate("sia.holydays.no_file")}
            </Typography>
            {error && (
              <Alert severity="error">
                {error}
                {rows.length > 0 && (
                  <List dense aria-label={translate("sia.holydays.invalid_rows")}>
                    {rows.map((row) => (
                      <ListItem key={row} disableGutters>
                        {row}
                      </ListItem>
                    ))}
                  </List>
                )}
              </Alert>
            )}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={confirming ? () => setConfirming(false) : close} disabled={busy}>
          {translate(confirming ? "sia.holydays.back" : "sia.common.cancel")}
        </Button>
        {confirming ? (
          <Button
            variant="contained"
            onClick={send}
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} /> : undefined}
          >
            {translate("sia.holydays.confirm_import")}
          </Button>
        ) : (
          <Button variant="contained" onClick={askConfirmation}>
            {translate("sia.holydays.import")}
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
