/**
 * The command lines' arguments, read by node:util's parseArgs: its refusals are English sentences, so each
 * one becomes a Spanish line naming the option (the person at the terminal reads it above the usage).
 */
import { type ParseArgsConfig, parseArgs } from "node:util";
import { argsMessages } from "../../src/core/messages";

/** A command line that parseArgs refused, its message already in Spanish. */
export class ArgsError extends Error {}

/** The first quoted word of parseArgs' message: the option or argument it refused (`'--to <value>'` → `--to`). */
function named(message: string): string {
  return /'([^' ]+)/.exec(message)?.[1] ?? "";
}

/** parseArgs' error in Spanish; any other error's own message. */
export function argsErrorText(error: unknown): string {
  const { code, message } = error as { code?: string; message: string };
  const which = named(message);
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return argsMessages.unknownOption(which);
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return argsMessages.unexpected(which);
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      // A string option with nothing after it ("argument missing", or the next word is another option:
      // "ambiguous"), or a boolean one given a value.
      return /does not take/.test(message) ? argsMessages.takesNoValue(which) : argsMessages.missingValue(which);
    default:
      return argsMessages.invalid(message);
  }
}

/** parseArgs with strict options and no positionals; its refusals thrown as ArgsError, in Spanish. */
export function parseCliArgs<O extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new ArgsError(argsErrorText(error));
  }
}
