/**
 * The drive folder of a client, prospect or project (SPEC §2 "drive folder picker"): browse the drive,
 * create a folder, pick one. Writes `drive_root_id` and `drive_root_url`; the server checks both.
 */
import CreateNewFolderIcon from "@mui/icons-material/CreateNewFolder";
import FolderIcon from "@mui/icons-material/Folder";
import FolderOpenIcon from "@mui/icons-material/FolderOpen";
import {
  Alert,
  Box,
  Breadcrumbs,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormHelperText,
  Link,
  List,
  ListItemButton,
  ListItemIcon,
  ListItemText,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useCallback, useEffect, useState } from "react";
import { useDataProvider, useInput, useTranslate } from "react-admin";
import { useFormContext, useWatch } from "react-hook-form";
import type { DriveItem, SiaDataProvider } from "../../dataProvider";
import { DriveFolderLink } from "./DriveFolderLink";

interface Listing {
  folder: DriveItem;
  items: DriveItem[];
  next: string | null;
}

/** `label` and `helperText` are catalogue keys (a plain text shows as it is). */
export function DriveFolderInput({ label = "sia.drive.label", helperText }: { label?: string; helperText?: string }) {
  const translate = useTranslate();
  const { fieldState } = useInput({ source: "drive_root_id" });
  const { setValue } = useFormContext();
  const url = useWatch({ name: "drive_root_url" }) as string | null | undefined;
  const urlError = useFormContext().getFieldState("drive_root_url").error;
  const [open, setOpen] = useState(false);
  const error = fieldState.error?.message ?? urlError?.message;

  return (
    <Box sx={{ mb: 2 }}>
      <Typography variant="caption" color="text.secondary" component="div">
        {translate(label, { _: label })}
      </Typography>
      <Stack direction="row" spacing={1} alignItems="center" sx={{ minHeight: 40 }}>
        <FolderIcon color={url ? "primary" : "disabled"} />
        {url ? (
          <DriveFolderLink url={url} testId="drive-folder-url" />
        ) : (
          <Typography color="text.secondary">{translate("sia.drive.none")}</Typography>
        )}
        <Button size="small" variant="outlined" startIcon={<FolderOpenIcon />} onClick={() => setOpen(true)}>
          {translate("sia.drive.choose")}
        </Button>
      </Stack>
      {(error || helperText) && (
        <FormHelperText error={Boolean(error)}>
          {error ?? (helperText && translate(helperText, { _: helperText }))}
        </FormHelperText>
      )}
      {open && (
        <FolderDialog
          onClose={() => setOpen(false)}
          onPick={(folder) => {
            setValue("drive_root_id", folder.id, { shouldDirty: true, shouldValidate: true });
            setValue("drive_root_url", folder.url, { shouldDirty: true, shouldValidate: true });
            setOpen(false);
          }}
        />
      )}
    </Box>
  );
}

function FolderDialog({ onClose, onPick }: { onClose: () => void; onPick: (folder: DriveItem) => void }) {
  const dataProvider = useDataProvider<SiaDataProvider>();
  const translate = useTranslate();
  const [trail, setTrail] = useState<DriveItem[]>([]);
  const [listing, setListing] = useState<Listing | null>(null);
  const [loading, setLoading] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [newName, setNewName] = useState("");
  const [creating, setCreating] = useState(false);

  const load = useCallback(
    async (folderId?: string, pageToken?: string) => {
      setLoading(true);
      setFailure(null);
      try {
        const page = await dataProvider.listDriveFolder(folderId, pageToken);
        setListing((previous) => ({
          folder: page.folder,
          items: pageToken && previous ? [...previous.items, ...page.items] : page.items,
          next: page.next_page_token,
        }));
        if (!pageToken) {
          setTrail((previous) => {
            const at = previous.findIndex((f) => f.id === page.folder.id);
            return at >= 0 ? previous.slice(0, at + 1) : [...previous, page.folder];
          });
        }
      } catch (error) {
        setFailure((error as Error).message);
      } finally {
        setLoading(false);
      }
    },
    [dataProvider],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const createFolder = async () => {
    if (!listing || !newName.trim() || creating) return;
    setCreating(true);
    setFailure(null);
    try {
      const folder = await dataProvider.createDriveFolder(listing.folder.id, newName.trim());
      setNewName("");
      await load(folder.id);
    } catch (error) {
      setFailure((error as Error).message);
    } finally {
      setCreating(false);
    }
  };

  const folders = listing?.items.filter((item) => item.kind === "folder") ?? [];
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="drive-dialog-title">
      <DialogTitle id="drive-dialog-title">{translate("sia.drive.dialog_title")}</DialogTitle>
      <DialogContent dividers>
        <Breadcrumbs sx={{ mb: 1 }} aria-label={translate("sia.drive.path")}>
          {trail.map((folder, i) =>
            i === trail.length - 1 ? (
              <Typography key={folder.id} color="text.primary">
                {folder.name || translate("sia.drive.root")}
              </Typography>
            ) : (
              <Link key={folder.id} component="button" type="button" onClick={() => void load(folder.id)}>
                {folder.name || translate("sia.drive.root")}
              </Link>
            ),
          )}
        </Breadcrumbs>
        {failure && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {failure}
          </Alert>
        )}
        {loading && !listing ? (
          <CircularProgress size={24} />
        ) : (
          <List dense sx={{ maxHeight: 320, overflow: "auto" }}>
            {folders.length === 0 && <Typography color="text.secondary">{translate("sia.drive.no_subfolders")}</Typography>}
            {folders.map((folder) => (
              <ListItemButton key={folder.id} onClick={() => void load(folder.id)}>
                <ListItemIcon>
                  <FolderIcon />
                </ListItemIcon>
                <ListItemText primary={folder.name} />
              </ListItemButton>
            ))}
            {listing?.next && (
              <Button size="small" disabled={loading} onClick={() => void load(listing.folder.id, listing.next ?? undefined)}>
                {translate("sia.drive.load_more")}
              </Button>
            )}
          </List>
        )}
        <Stack direction="row" spacing={1} sx={{ mt: 2 }}>
          <TextField
            size="small"
            label={translate("sia.drive.new_folder")}
            value={newName}
            onChange={(e) => setNewName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") {
                e.preventDefault();
                void createFolder();
              }
            }}
            fullWidth
          />
          <Button startIcon={<CreateNewFolderIcon />} disabled={!newName.trim() || creating} onClick={() => void createFolder()}>
            {translate("sia.drive.create")}
          </Button>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{translate("sia.common.cancel")}</Button>
        <Button
          variant="contained"
          disabled={!listing || listing.folder.parentId === null}
          onClick={() => listing && onPick(listing.folder)}
        >
          {translate("sia.drive.select")}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
