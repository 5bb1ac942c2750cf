import path from "node:path";
import type { Config } from "../../config";
import { LocalDocuments } from "./local";
import type { DocumentsPort } from "./port";

export { LocalDocuments } from "./local";
export * from "./port";

/** The drive of this installation, chosen by DOCUMENTS_ADAPTER (created once per app). */
export function createDocuments(config: Config): DocumentsPort {
  switch (config.DOCUMENTS_ADAPTER) {
    case "local":
      return new LocalDocuments(path.join(config.dataDir, "drive"), config.PUBLIC_URL);
  }
}
