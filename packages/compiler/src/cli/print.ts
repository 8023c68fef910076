import type { JsonSchema } from "toolwright";
import {
  type DialectName,
  type DialectNote,
  type DialectResult,
  dialects,
  isDialectName,
  isStrictResult,
  mcpAnnotations,
} from "toolwright/dialects";
import { parseOptions, projectOption, typescriptOption } from "./args.js";
import { type Command, UsageError } from "./command.js";
import { openProject } from "./open-project.js";
import { progressFor } from "./progress.js";
import type { ProjectTool } from "./project.js";
import { formatDiagnostics, hasErrors } from "./report.js";

/** A tool as the provider's API receives it, in that provider's envelope. */
function envelope(dialect: DialectName, tool: ProjectTool, result: DialectResult): unknown {
  const { name, description, flags } = tool.spec;
  const schema: JsonSchema = result.schema;
  switch (dialect) {
    case "openai":
    case "openai-strict":
    case "openai-nonstrict": {
      const strict = dialect === "openai-strict" || (dialect === "openai" && isStrictResult(result));
      return { type: "function", function: { name, description, parameters: schema, strict } };
    }
    case "anthropic":
    case "anthropic-strict":
      return { name, description, input_schema: schema, ...(dialect === "anthropic-strict" ? { strict: true } : {}) };
    case "gemini":
      return { name, description, parametersJsonSchema: schema };
    case "gemini-legacy":
      return { name, description, parameters: schema };
    case "mcp": {
      const annotations = mcpAnnotations(flags);
      return { name, description, inputSchema: schema, ...(annotations ? { annotations } : {}) };
    }
  }
}

const usage = `usage: toolwright print [-p tsconfig.json] [--dialect <name> | --raw] [--typescript <dir>]

Prints every tool's schema as JSON, sorted by name: by default what every provider is
given (name, description and the JSON Schema of the arguments); with --dialect the tool
definition as that provider receives it, in its envelope after the dialect's rewrites; with
--raw the spec as the compiler writes it, toolwright's own keys included ($toolwright,
slots, flags, source, validators). A provider's name (openai, anthropic, gemini, mcp) is
what it sends by default (openai: strict mode, non-strict for a tool strict mode refuses);
a suffixed name is one mode. Dialects: ${Object.keys(dialects).join(", ")}.
Dialect notes (rewrites, fallbacks, rejections) go to stderr.
  -p, --project  the tsconfig.json to read (default: the nearest one)
  --dialect      the provider or dialect to print for
  --raw          the whole spec, as the compiler writes it
  --typescript   the folder of a TypeScript 7 package to use instead of the project's`;

/** `toolwright print`: every tool's schema as providers receive it, as one provider does, or the whole spec. */
export const print: Command = {
  summary:
    "print every tool's schema as providers receive it (--dialect openai|anthropic|gemini|mcp; --raw: the whole spec)",
  usage,
  async run(args, io) {
    const values = parseOptions(args, {
      ...projectOption,
      ...typescriptOption,
      dialect: { type: "string" },
      raw: { type: "boolean" },
    });
    const dialect = values.dialect;
    if (dialect !== undefined && values.raw) {
      throw new UsageError(
        "--raw prints the spec as the compiler writes it, --dialect as a provider receives it: give one.",
      );
    }
    if (dialect !== undefined && !isDialectName(dialect)) {
      throw new UsageError(`unknown dialect '${dialect}'; use one of ${Object.keys(dialects).join(", ")}.`);
    }
    const progress = progressFor(io, "toolwright print");
    const project = await openProject(io.cwd, values.project, { progress, typescript: values.typescript });
    progress.done();
    if (project.diagnostics.length > 0) io.err(formatDiagnostics(project.diagnostics, project.root, false));
    if (hasErrors(project.diagnostics)) return 1;
    const tools = [...project.tools].sort((a, b) =>
      a.spec.name < b.spec.name ? -1 : a.spec.name > b.spec.name ? 1 : 0,
    );
    const notes: string[] = [];
    const printed = tools.map((tool) => {
      if (values.raw) return tool.spec;
      if (dialect === undefined)
        return { name: tool.spec.name, description: tool.spec.description, parameters: tool.spec.parameters };
      const result = dialects[dialect].toDialect(tool.spec.parameters);
      notes.push(
        ...result.notes.map(
          (n: DialectNote) =>
            `${tool.file}:${tool.line}: ${tool.spec.name}: ${n.severity} ${n.code} at '${n.path}': ${n.message}`,
        ),
      );
      return envelope(dialect, tool, result);
    });
    if (notes.length > 0) io.err(`${notes.join("\n")}\n`);
    io.out(`${JSON.stringify(printed, null, 2)}\n`);
    return 0;
  },
};
