/** `npm run env-example`: writes .env.example from server/config.ts (see ./envExample.ts). */
import fs from "node:fs";
import path from "node:path";
import { envExampleText } from "./envExample";

const file = path.resolve(import.meta.dirname, "..", "..", ".env.example");
fs.writeFileSync(file, envExampleText());
console.log(`Escrito ${path.relative(process.cwd(), file) || file}`);
