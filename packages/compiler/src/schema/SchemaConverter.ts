import type { JsonSchema } from "toolwright";
import { type Backend, SymbolFlag, type TsSymbol, type TsType, TypeFlag } from "../backend/backend.js";
import type { Node, TypeNode } from "../backend/syntax.js";
import { type DocBlock, readDoc } from "../docs.js";
import { withDoc } from "./keywords.js";
import { holdsNoValue } from "./no-value.js";
import type { RuleContext, TypeRule } from "./rule.js";
import { RULES, unionSchema } from "./rules.js";
import { includesUndefined, isLibSymbol } from "./type-facts.js";
import { hintOf, type NodeHint } from "./type-node-hint.js";
import { type UnionMember, unionMembersInSourceOrder } from "./union-order.js";

/** Something JSON cannot carry, found at `path` (e.g. `options.callback`). */
export interface SchemaIssue {
  readonly path: string;
  readonly construct: string;
  readonly fix: string;
  /** Why the construct cannot be sent, when it is not that JSON cannot carry it. */
  readonly reason?: string;
  /** Where to report it, when that is not the parameter: an enum member whose value is computed. */
  readonly node?: Node;
  /** `internal` when toolwright itself failed on the construct (a bug), not the user's type. */
  readonly kind: "unsupported" | "internal";
}

const NO_DOC: DocBlock = { summary: "", tags: [] };
// Deeper than any type a person writes by hand; a type that expands without end (a
// generic that wraps itself in a new instantiation at every level) stops here.
const MAX_DEPTH = 64;
/** An alias named like this gives `integer`: `type Int = number`. */
const INTEGER_ALIAS = /^int(eger)?$/i;

/**
 * Maps checker types to JSON Schema by running {@link RULES} in order. Recursion, aliases'
 * TSDoc and member comments are handled here, around the rules: a type met again while it
 * is still being mapped (an object, a union or an array) becomes a `$ref` into `$defs`.
 * A rule that throws becomes an `internal` issue at the current path, never a crash.
 */
export class SchemaConverter implements RuleContext {
  /** Shared definitions of recursive types, to be placed under the root's `$defs`. */
  readonly defs: Record<string, JsonSchema> = {};
  readonly issues: SchemaIssue[] = [];
  private readonly stack: TsType[] = [];
  private readonly recursive = new Set<TsType>();
  private readonly names = new Map<TsType, string>();
  /** Unions written as type arguments (`Page<"z" | "y">`): their members, and the node they were written as. */
  private readonly writtenArguments: { readonly members: readonly TsType[]; readonly node: TypeNode }[] = [];
  /** The annotation each tracked type was first met with, for its `$defs` name. */
  private readonly written = new Map<TsType, TypeNode | undefined>();
  private path: string[] = [];
  /** Set once a root went too deep, so one runaway type gives one issue, not one per branch. */
  private tooDeep = false;

  constructor(
    readonly backend: Backend,
    private readonly rules: readonly TypeRule[] = RULES,
  ) {}

  /** Maps the type of one parameter (or the return type); `root` names it in issues. */
  convertRoot(type: TsType, root: string, node?: TypeNode): JsonSchema {
    this.path = [root];
    this.tooDeep = false;
    return this.convert(type, "", node);
  }

  /**
   * Maps a union the program holds no type for: a return type's branches with their
   * promises awaited (`Promise<A> | B` is `A | B` to a caller). `whole` names it in issues.
   */
  convertRootUnion(members: readonly UnionMember[], root: string, whole: TsType): JsonSchema {
    this.path = [root];
    this.tooDeep = false;
    return this.guarded(
      whole,
      () => "union",
      () => unionSchema(members, this),
    );
  }

  convert(type: TsType, step: string, node?: TypeNode): JsonSchema {
    this.path.push(step);
    try {
      if (this.path.length > MAX_DEPTH) {
        if (this.tooDeep) return {};
        this.tooDeep = true;
        return this.unsupported(
          `a type that keeps expanding (more than ${MAX_DEPTH} levels, here \`${this.backend.typeToString(type)}\`)`,
          "make the recursion go through the same named type at every level (a generic that wraps its argument anew, like `next?: Layer<T[]>`, never repeats), or flatten the type",
        );
      }
      const tracked = this.isTracked(type);
      if (tracked && this.stack.includes(type)) {
        this.recursive.add(type);
        return { $ref: `#/$defs/${this.defName(type)}` };
      }
      const hint = this.hintFor(type, node);
      this.noteTypeArguments(hint);
      if (tracked) {
        this.stack.push(type);
        if (!this.written.has(type)) this.written.set(type, hint.node);
      }
      const schema = withAliases(this.applyRule(type, hint), hint);
      if (!tracked) return schema;
      this.stack.pop();
      if (!this.recursive.has(type)) return schema;
      this.defs[this.defName(type)] = schema;
      return { $ref: `#/$defs/${this.defName(type)}` };
    } finally {
      this.path.pop();
    }
  }

  convertProperty(property: TsSymbol): { schema: JsonSchema; optional: boolean } | undefined {
    const b = this.backend;
    const type = b.typeOfSymbol(property);
    const optional = (b.symbolFlags(property) & SymbolFlag.Optional) !== 0 || includesUndefined(type, b);
    // `kind?: undefined`, `b?: never`: the only JSON that fits leaves the key out.
    if (optional && holdsNoValue(type, b)) return undefined;
    const declaration = b.valueDeclaration(property) ?? b.declarations(property)[0];
    const doc = declaration ? readDoc(declaration, b.syntax) : NO_DOC;
    const schema = this.convert(type, `.${b.symbolName(property)}`, declaration && annotationOf(declaration, b));
    return { schema: withDoc(schema, doc), optional };
  }

  unsupported(construct: string, fix: string, detail: { reason?: string; at?: Node } = {}): JsonSchema {
    this.issues.push({
      path: this.shownPath(),
      construct,
      fix,
      ...(detail.reason ? { reason: detail.reason } : {}),
      ...(detail.at ? { node: detail.at } : {}),
      kind: "unsupported",
    });
    return {};
  }

  private applyRule(type: TsType, hint: NodeHint): JsonSchema {
    let rule: TypeRule | undefined;
    return this.guarded(
      type,
      () => rule?.name ?? "rule lookup",
      () => {
        rule = this.rules.find((r) => r.supports(type, this));
        return rule ? rule.convert(type, this, hint.node) : {};
      },
    );
  }

  /** Runs one mapping step; a throw becomes an `internal` issue at the current path. */
  private guarded(type: TsType, step: () => string, map: () => JsonSchema): JsonSchema {
    try {
      return map();
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      this.issues.push({
        path: this.shownPath(),
        construct: `the type \`${this.backend.typeToString(type)}\`, on which toolwright's "${step()}" step failed (${reason.slice(0, 200)})`,
        fix: "this is a toolwright bug, please report it with the type; until then use a simpler type here, or pass a hand-written schema with tool({ name, description, parameters, execute })",
        kind: "internal",
      });
      return {};
    }
  }

  /**
   * What the annotation says about `type`; for a union whose annotation does not write it
   * out (a generic's body naming its parameter `T`), the type argument it was written as
   * (`Page<"z" | "y">`), when one was met, so its members keep the order written there.
   */
  private hintFor(type: TsType, node: TypeNode | undefined): NodeHint {
    const hint = hintOf(node, this.backend);
    if (hint.node && this.backend.syntax.isUnionTypeNode(hint.node)) return hint;
    const b = this.backend;
    if ((b.typeFlags(type) & TypeFlag.Union) === 0) return hint;
    // `first?: T` is `T | undefined`: the written union may lack an `undefined` (or `null`).
    const members = b.typeMembers(type);
    const extra = (m: TsType) => (b.typeFlags(m) & (TypeFlag.Undefined | TypeFlag.Null)) !== 0;
    const written = this.writtenArguments.find(
      (w) => w.members.every((m) => members.includes(m)) && members.every((m) => w.members.includes(m) || extra(m)),
    );
    return written ? hintOf(written.node, b) : hint;
  }

  private noteTypeArguments(hint: NodeHint): void {
    const b = this.backend;
    for (const node of hint.typeArguments) {
      const type = b.typeFromTypeNode(node);
      if (b.typeFlags(type) & TypeFlag.Union) this.writtenArguments.push({ members: b.typeMembers(type), node });
    }
  }

  /** The path for a message, its middle cut when a deep type made it long. */
  private shownPath(): string {
    const path = this.path.join("");
    return path.length > 100 ? `${path.slice(0, 50)}…${path.slice(-40)}` : path;
  }

  /**
   * Types that can contain themselves: user object types, unions, intersections, arrays
   * and tuples (`type J = string | J[]` recurses through a union and an array). Lib types
   * other than arrays (Date, Map, ...) never do.
   */
  private isTracked(type: TsType): boolean {
    const b = this.backend;
    const flags = b.typeFlags(type);
    if (flags & (TypeFlag.Union | TypeFlag.Intersection)) return true;
    if ((flags & TypeFlag.Object) === 0) return false;
    if (b.isArrayType(type) || b.isTupleType(type)) return true;
    return !isLibSymbol(b.symbolOfType(type), b);
  }

  /**
   * The `$defs` key of a recursive type: its name, or for a union with no alias its members'
   * names in the order its schema lists them (the compilers print a union's members in
   * orders of their own).
   */
  private defName(type: TsType): string {
    const known = this.names.get(type);
    if (known) return known;
    const b = this.backend;
    const text =
      b.typeFlags(type) & TypeFlag.Union && !b.aliasOfType(type)
        ? unionMembersInSourceOrder(b.typeMembers(type), this.written.get(type), b)
            .map((m) => b.typeToString(m.type))
            .join(" | ")
        : b.typeToString(type);
    const base = text.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "") || "Type";
    const taken = new Set(this.names.values());
    let name = base;
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`;
    this.names.set(type, name);
    return name;
  }
}

/** The type annotation written on a property or parameter declaration, if any. */
export function annotationOf(declaration: Node, backend: Backend): TypeNode | undefined {
  const S = backend.syntax;
  return (S.isPropertySignature(declaration) || S.isPropertyDeclaration(declaration) || S.isParameter(declaration)) &&
    declaration.type
    ? declaration.type
    : undefined;
}

/**
 * Applies each alias's TSDoc (summary and constraint tags) and the integer naming rule,
 * innermost alias first, so the alias closest to the use wins.
 */
function withAliases(schema: JsonSchema, hint: NodeHint): JsonSchema {
  let out = schema;
  for (const alias of hint.aliases) {
    if (INTEGER_ALIAS.test(alias.name)) out = asInteger(out);
    out = withDoc(out, alias.doc);
  }
  return out;
}

function asInteger(schema: JsonSchema): JsonSchema {
  if (schema.type === "number") return { ...schema, type: "integer" };
  if (Array.isArray(schema.type) && schema.type.includes("number")) {
    return { ...schema, type: schema.type.map((t: unknown) => (t === "number" ? "integer" : t)) };
  }
  return schema;
}
