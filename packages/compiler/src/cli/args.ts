import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "./command.js";

type OptionSpec = NonNullable<ParseArgsConfig["options"]>;

/** The parsed values of an {@link OptionSpec}: strings, or booleans for flags; absent when not given. */
export type OptionValues<T extends OptionSpec> = {
  [K in keyof T]?: T[K]["type"] extends "boolean" ? boolean : string;
};

/** Parses a subcommand's options strictly; a wrong flag is a {@link UsageError}. */
export function parseOptions<T extends OptionSpec>(args: readonly string[], options: T): OptionValues<T> {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: false, strict: true }).values as OptionValues<T>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The `-p, --project` option every command takes. */
export const projectOption = { project: { type: "string", short: "p" } } as const;

/** The `--typescript <dir>` option of the commands that compile: a TypeScript 7 package to use. */
export const typescriptOption = { typescript: { type: "string" } } as const;
