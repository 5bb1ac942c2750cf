/** `npm run create-admin -- --email x --password y [--name "Nombre"]`: see ./admin.ts. */
import { runCreateAdmin } from "./admin";

process.exitCode = await runCreateAdmin(process.argv.slice(2));
