/** `npm run move-to-postgres -- --to postgres://…`: see ./moveToPostgres.ts. Stop the server first. */
import { runMoveToPostgres, stopOnInterrupt } from "./moveToPostgres";

process.exitCode = await runMoveToPostgres(process.argv.slice(2), process.env, undefined, stopOnInterrupt());
