/**
 * A drive folder shown as people read it: `Clientes/Transportes Ñandú`, not `Clientes/Transportes%20%C3%91and%C3%BA`.
 * The link keeps the folder's URL as the drive gave it (href), only its text is decoded.
 */
import { Link, Typography } from "@mui/material";
import { type FieldProps, useFieldValue } from "react-admin";

/** The local drive's paths (server/ports/documents/local.ts): what follows is the item's path in the drive. */
const DRIVE_SEGMENTS = ["/drive/folders/", "/drive/files/"];

/** Decodes what can be decoded; a malformed escape (`%E0%A4%A`) is shown as it is rather than failing. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    try {
      return decodeURI(text);
    } catch {
      return text;
    }
  }
}

/**
 * The readable name of a drive link: the local drive's folder or file path (`/drive/folders/<path>`,
 * `/drive/files/<path>`), or the whole URL decoded otherwise (a Google Drive id is opaque).
 */
export function driveFolderLabel(url: string): string {
  const local = !/^https?:\/\/(drive|docs)\.google\.com\//i.test(url);
  const segment = local ? DRIVE_SEGMENTS.find((s) => url.includes(s)) : undefined;
  const path = segment ? url.slice(url.indexOf(segment) + segment.length).split(/[?#]/, 1)[0] : url;
  return decoded(path || url);
}

export function DriveFolderLink({ url, testId }: { url: string; testId?: string }) {
  return (
    <Link
      href={url}
      target="_blank"
      rel="noopener noreferrer"
      onClick={(e) => e.stopPropagation()}
      data-testid={testId}
      title={driveFolderLabel(url)}
      sx={{ wordBreak: "break-word" }}
    >
      {driveFolderLabel(url)}
    </Link>
  );
}

/** The record's drive folder (`drive_root_url` by default) in lists and detail screens. */
export function DriveFolderField(props: FieldProps & { source?: string }) {
  const url = useFieldValue({ ...props, source: props.source ?? "drive_root_url" }) as string | null | undefined;
  if (!url) return <Typography variant="body2">—</Typography>;
  return <DriveFolderLink url={url} testId="drive-folder-link" />;
}
