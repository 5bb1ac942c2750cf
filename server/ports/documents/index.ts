import path from "node:path";
import type { Config } from "../../config";
import { LocalDocuments } from "./local";
import type { DocumentsPort } from "./port";

export { LocalDocuments } from "./local";
export * from "./port";

/**
 * The drive of this installation, chosen by DOCUMENTS_ADAPTER (created once per app). Google's client is
 * imported only when it is the adapter: it costs tens of MB and part of a second at every start otherwise.
 */
export async function createDocuments(config: Config): Promise<DocumentsPort> {
  switch (config.DOCUMENTS_ADAPTER) {
    case "local":
      return new LocalDocuments(path.join(config.dataDir, "drive"), config.PUBLIC_URL);
    case "google": {
      const { GoogleDriveDocuments } = await import("./google");
      // loadConfig() refuses DOCUMENTS_ADAPTER=google without these two.
      return new GoogleDriveDocuments({
        rootId: config.GOOGLE_DRIVE_ROOT_ID as string,
        key: config.GOOGLE_SERVICE_ACCOUNT_KEY_FILE as string,
        rootUrl: config.GOOGLE_API_ROOT_URL,
      });
    }
  }
}
