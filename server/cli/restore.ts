/** `npm run restore -- --in archivo`: see ./backups.ts. Stop the server first. */
import { runRestore } from "./backups";

process.exitCode = await runRestore(process.argv.slice(2));
