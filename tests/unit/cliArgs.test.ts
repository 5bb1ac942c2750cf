/**
 * The command lines' argument refusals (server/cli/args.ts): parseArgs' English sentences become Spanish
 * lines naming the option, for every CLI that reads arguments (create-admin, backup, restore, the move).
 */
import { describe, expect, it } from "vitest";
import { ArgsError, parseCliArgs } from "../../server/cli/args";
import { argsMessages } from "../../src/core/messages";

const options = { to: { type: "string" }, quiet: { type: "boolean" } } as const;

function refusal(argv: string[]): string {
  try {
    parseCliArgs(argv, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ArgsError);
    return (error as Error).message;
  }
  throw new Error(`aceptó ${argv.join(" ")}`);
}

describe("parseCliArgs", () => {
  it("reads the options it is given", () => {
    expect(parseCliArgs(["--to", "postgres://x/y", "--quiet"], options)).toEqual({ to: "postgres://x/y", quiet: true });
  });

  it("refuses in Spanish, naming the option, with no English left", () => {
    expect(refusal(["--to"])).toBe(argsMessages.missingValue("--to"));
    expect(refusal(["--to", "--quiet"])).toBe(argsMessages.missingValue("--to"));
    expect(refusal(["--too", "x"])).toBe(argsMessages.unknownOption("--too"));
    expect(refusal(["-x"])).toBe(argsMessages.unknownOption("-x"));
    expect(refusal(["--quiet=sí"])).toBe(argsMessages.takesNoValue("--quiet"));
    expect(refusal(["sobrante"])).toBe(argsMessages.unexpected("sobrante"));
    for (const argv of [["--to"], ["--to", "--quiet"], ["--too"], ["--quiet=1"], ["sobrante"]]) {
      expect(refusal(argv)).not.toMatch(/\b(option|argument|unknown|missing|ambiguous|unexpected)\b/i);
    }
  });
});
