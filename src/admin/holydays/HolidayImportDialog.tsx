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
import { useDataProvider, useNotify, useRefresh } from "react-admin";
import { messages } from "../../core/messages";
import { downloadCsv, HolidayImportError, type SiaDataProvider } from "../../dataProvider";

const isCsv = (file: File) => /\.csv$/i.test(file.name);

export function HolidayImportDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const notify = useNotify();
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
      await downloadCsv("holydays/download_holydays_format", {}, { fallbackName: "formato_dias_festivos.csv" });
    } catch (e) {
      notify((e as Error).message, { type: "error" });
    }
  };

  return (
    <Dialog open={open} onClose={close} fullWidth maxWidth="sm" aria-labelledby="holiday-import-title">
      <DialogTitle id="holiday-import-title">Importar días festivos</DialogTitle>
      <DialogContent>
        {confirming && file ? (
          <DialogContentText>
            ¿Deseas importar los días festivos del archivo <strong>{file.name}</strong>? Las fechas ya registradas se omitirán.
          </DialogContentText>
        ) : (
          <Stack spacing={2}>
            <DialogContentText>
              Seleccione un archivo CSV con las columnas <code>fecha,nombre</code> (fecha como AAAA-MM-DD o DD/MM/AAAA).
            </DialogContentText>
            <Link href="#" onClick={downloadFormat} sx={{ display: "inline-flex", alignItems: "center", gap: 0.5 }}>
              <DownloadIcon fontSize="small" /> Descargar formato
            </Link>
            <Button component="label" variant="outlined" startIcon={<UploadFileIcon />} sx={{ alignSelf: "flex-start" }}>
              Seleccionar archivo
              <input
                hidden
                type="file"
                accept=".csv,text/csv"
                aria-label="Archivo CSV"
                onChange={(e) => {
                  setFile(e.target.files?.[0] ?? null);
                  setError(null);
                  setRows([]);
                  e.target.value = "";
                }}
              />
            </Button>
            <Typography variant="body2">{file ? `Archivo: ${file.name}` : "Ningún archivo seleccionado"}</Typography>
            {error && (
              <Alert severity="error">
                {error}
                {rows.length > 0 && (
                  <List dense aria-label="Filas no válidas">
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
          {confirming ? "Regresar" : "Cancelar"}
        </Button>
        {confirming ? (
          <Button
            variant="contained"
            onClick={send}
            disabled={busy}
            startIcon={busy ? <CircularProgress size={16} /> : undefined}
          >
            Confirmar importación
          </Button>
        ) : (
          <Button variant="contained" onClick={askConfirmation}>
            Importar
          </Button>
        )}
      </DialogActions>
    </Dialog>
  );
}
