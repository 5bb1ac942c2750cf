/** `npm run move-to-postgres -- --to postgres://…`: see ./moveToPostgres.ts. Stop the server first. */
import { runMoveToPostgres } from "./moveToPostgres";

process.exitCode = await runMoveToPostgres(process.argv.slice(2));
