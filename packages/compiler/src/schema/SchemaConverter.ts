import type { JsonSchema } from "toolwright";
import type ts from "typescript";
import { type DocBlock, readDoc } from "../docs.js";
import { TS } from "../typescript-host.js";
import { withDoc } from "./keywords.js";
import type { RuleContext, TypeRule } from "./rule.js";
import { RULES } from "./rules.js";
import { isLibSymbol } from "./type-facts.js";

/** Something JSON cannot carry, found at `path` (e.g. `options.callback`). */
export interface SchemaIssue {
  readonly path: string;
  readonly construct: string;
  readonly fix: string;
}

const NO_DOC: DocBlock = { summary: "", tags: [] };

/**
 * Maps checker types to JSON Schema by running {@link RULES} in order. Recursion and
 * member comments are handled here, around the rules: a named object type met again
 * while it is still being mapped becomes a `$ref` into `$defs`.
 */
export class SchemaConverter implements RuleContext {
  /** Shared definitions of recursive types, to be placed under the root's `$defs`. */
  readonly defs: Record<string, JsonSchema> = {};
  readonly issues: SchemaIssue[] = [];
  private readonly stack: ts.Type[] = [];
  private readonly recursive = new Set<ts.Type>();
  private readonly names = new Map<ts.Type, string>();
  private path: string[] = [];

  constructor(
    readonly checker: ts.TypeChecker,
    private readonly rules: readonly TypeRule[] = RULES,
  ) {}

  /** Maps the type of one parameter (or the return type); `root` names it in issues. */
  convertRoot(type: ts.Type, root: string): JsonSchema {
    this.path = [root];
    return this.convert(type, "");
  }

  convert(type: ts.Type, step: string): JsonSchema {
    this.path.push(step);
    try {
      const tracked = this.isTracked(type);
      if (tracked && this.stack.includes(type)) {
        this.recursive.add(type);
        return { $ref: `#/$defs/${this.defName(type)}` };
      }
      if (tracked) this.stack.push(type);
      const rule = this.rules.find((r) => r.supports(type, this));
      const schema = rule ? rule.convert(type, this) : {};
      if (!tracked) return schema;
      this.stack.pop();
      if (!this.recursive.has(type)) return schema;
      this.defs[this.defName(type)] = schema;
      return { $ref: `#/$defs/${this.defName(type)}` };
    } finally {
      this.path.pop();
    }
  }

  convertProperty(property: ts.Symbol): { schema: JsonSchema; optional: boolean } {
    const declaration = property.valueDeclaration ?? property.declarations?.[0];
    const doc = declaration ? readDoc(declaration) : NO_DOC;
    const schema = this.convert(this.checker.getTypeOfSymbol(property), `.${property.getName()}`);
    return { schema: withDoc(schema, doc), optional: (property.flags & TS.SymbolFlags.Optional) !== 0 };
  }

  unsupported(construct: string, fix: string): JsonSchema {
    this.issues.push({ path: this.path.join(""), construct, fix });
    return {};
  }

  /** Only named, user-declared object types can recurse; arrays and lib types are skipped. */
  private isTracked(type: ts.Type): boolean {
    if ((type.flags & TS.TypeFlags.Object) === 0) return false;
    if (this.checker.isArrayType(type) || this.checker.isTupleType(type)) return false;
    return !isLibSymbol(type.getSymbol());
  }

  private defName(type: ts.Type): string {
    const known = this.names.get(type);
    if (known) return known;
    const base =
      this.checker
        .typeToString(type)
        .replace(/[^A-Za-z0-9_]+/g, "_")
        .replace(/^_+|_+$/g, "") || "Type";
    const taken = new Set(this.names.values());
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    this.names.set(type, name);
    return name;
  }
}
