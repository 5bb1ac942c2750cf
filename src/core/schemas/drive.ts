/** An item of the documents port (folders and files), as the port answers it and GET drive/folders lists it. */
export interface DriveItem {
  id: string;
  name: string;
  kind: "folder" | "file";
  /** Id of the containing folder (the root's is null). */
  parentId: string | null;
  /** Where a signed-in user opens it. */
  url: string;
}
