/**
 * The text of .env.example, from the config schema (server/config.ts): every variable, commented out with its
 * default, under its description. One source, so a variable added to the schema is documented by regenerating.
 */
import { configSchema } from "../config";

const WIDTH = 110;

/** The description wrapped into comment lines of at most WIDTH characters (a longer word stays whole). */
function commentLines(text: string): string[] {
  const lines: string[] = [];
  let line = "#";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== "#" && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = "#";
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines;
}

/** What the schema gives an unset variable, as it would be written; "" when SIA works it out (its text says how). */
function defaultOf(variable: string, field: (typeof configSchema.shape)[keyof typeof configSchema.shape]): string {
  const parsed = field.safeParse(undefined);
  if (!parsed.success) throw new Error(`${variable}: sin valor por omisión válido (${parsed.error.message})`);
  const value = parsed.data;
  if (value === undefined) return "";
  const text = Array.isArray(value) ? value.join(",") : String(value);
  // Quoted when a shell or an env file would split or misread it; systemd and node --env-file drop the quotes.
  return /[\s<>#"'$`\\]/.test(text) ? `"${text}"` : text;
}

export function envExampleText(): string {
  const out = [
    "# SIA's environment variables, each commented out with its default. Uncomment only what you set: an empty",
    "# value is not the same as unset (where nothing follows =, SIA works the value out as the line above says).",
    "# Written by `npm run env-example` from server/config.ts: change the schema there and regenerate, never this file.",
    "# SIA reads no file itself: load it with systemd's EnvironmentFile= or node --env-file=.env.",
  ];
  for (const [variable, field] of Object.entries(configSchema.shape)) {
    const description = field.description;
    if (!description) throw new Error(`${variable} no tiene descripción (.describe) en server/config.ts`);
    out.push("", ...commentLines(description), `# ${variable}=${defaultOf(variable, field)}`);
  }
  return `${out.join("\n")}\n`;
}
