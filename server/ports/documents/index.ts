import path from "node:path";
import type { Config } from "../../config";
import { GoogleDriveDocuments } from "./google";
import { LocalDocuments } from "./local";
import type { DocumentsPort } from "./port";

export { GoogleDriveDocuments } from "./google";
export { LocalDocuments } from "./local";
export * from "./port";

/** The drive of this installation, chosen by DOCUMENTS_ADAPTER (created once per app). */
export function createDocuments(config: Config): DocumentsPort {
  switch (config.DOCUMENTS_ADAPTER) {
    case "local":
      return new LocalDocuments(path.join(config.dataDir, "drive"), config.PUBLIC_URL);
    case "google":
      // loadConfig() refuses DOCUMENTS_ADAPTER=google without these two.
      return new GoogleDriveDocuments({
        rootId: config.GOOGLE_DRIVE_ROOT_ID as string,
        key: config.GOOGLE_SERVICE_ACCOUNT_KEY_FILE as string,
        rootUrl: config.GOOGLE_API_ROOT_URL,
      });
  }
}
