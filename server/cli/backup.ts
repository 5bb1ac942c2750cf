/** `npm run backup -- [--out archivo]`: see ./backups.ts. */
import { runBackup } from "./backups";

process.exitCode = await runBackup(process.argv.slice(2));
