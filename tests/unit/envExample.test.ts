/** .env.example and README's table follow the config schema, the one place a variable is declared. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { envExampleText } from "../../server/cli/envExample";
import { configSchema } from "../../server/config";

const ROOT = path.resolve(import.meta.dirname, "../..");
const variables = Object.keys(configSchema.shape);

describe("environment variables", () => {
  it(".env.example is what the generator writes from server/config.ts", () => {
    const committed = readFileSync(path.join(ROOT, ".env.example"), "utf8");
    expect(committed, ".env.example no corresponde a server/config.ts: ejecute `npm run env-example` y confirme el archivo").toBe(
      envExampleText(),
    );
  });

  it("README's table has one row per variable, and none the schema lacks", () => {
    const readme = readFileSync(path.join(ROOT, "README.md"), "utf8");
    const section = readme.split("\n## Environment variables\n")[1]?.split("\n## ")[0] ?? "";
    const rows = [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` *\|[^|]*\| *([^|]*)/gm)];
    // The table also lists what only the tests and the bench read; those say so and are not the server's.
    const serverRows = rows.filter((m) => !/^(tests only|`npm run bench` only)/.test(m[2])).map((m) => m[1]);
    expect(rows.length).toBeGreaterThan(0);
    expect(
      variables.filter((v) => !rows.some((m) => m[1] === v)),
      "variables de server/config.ts sin fila en la tabla del README",
    ).toEqual([]);
    expect(
      serverRows.filter((v) => !variables.includes(v)),
      "filas de la tabla del README que server/config.ts no lee",
    ).toEqual([]);
  });
});
