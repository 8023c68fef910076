import { type Backend, type TsSignature, type TsSymbol, type TsType, TypeFlag } from "./backend/backend.js";
import type { CallExpression } from "./backend/syntax.js";

/** Return types no instantiation gives a symbol: a call's type of this kind names no other signature's return type. */
const SYMBOLLESS =
  TypeFlag.String |
  TypeFlag.Number |
  TypeFlag.BigInt |
  TypeFlag.ESSymbol |
  TypeFlag.Void |
  TypeFlag.Undefined |
  TypeFlag.Null |
  TypeFlag.Never |
  TypeFlag.StringLiteral |
  TypeFlag.NumberLiteral |
  TypeFlag.BooleanLiteral;

/**
 * Which declared signature of a callee a call resolved to, read off the call's type instead
 * of asking the checker to resolve the call: over TypeScript 7's API a resolved signature
 * is one request per call, while the types of all of a batch's calls come in one request
 * ({@link Backend.knownTypeAt}). A call's type is its resolved signature's return type,
 * instantiated, and an instantiation keeps the symbol of the object type it instantiates
 * (`FunctionTool<F>` stays `FunctionTool`). So where the callee's signatures return object
 * types of pairwise distinct symbols, or types that no instantiation gives a symbol (`void`,
 * `string`), the symbol of the call's type names the one signature that can have made it;
 * the other calls are resolved as before. A signature is only named when no instantiation
 * can change which of its parameters after the first carry a brand (see {@link closed}): the
 * spec parameter's index is then read off the declaration. (The first parameter holds the
 * tool's function at every function tool site; the index was already a property of the
 * declaration, see ToolwrightTypes.specParameterIndex.)
 */
export class CallOverloads {
  /** Per callee: its signatures by the symbol of their return types, or undefined when they cannot be told apart so. */
  private readonly byCallee = new Map<TsSymbol, ReadonlyMap<TsSymbol, TsSignature | undefined> | undefined>();

  constructor(private readonly backend: Backend) {}

  /** The signature of `callee` that `call` resolved to, when the call's type (already held) tells; else undefined. */
  signatureOf(call: CallExpression, callee: TsSymbol): TsSignature | undefined {
    const { backend } = this;
    const type = backend.knownTypeAt(call);
    if (!type || !(backend.typeFlags(type) & TypeFlag.Object)) return undefined;
    const symbol = backend.symbolOfType(type);
    return symbol && this.signaturesOf(callee)?.get(symbol);
  }

  private signaturesOf(callee: TsSymbol): ReadonlyMap<TsSymbol, TsSignature | undefined> | undefined {
    if (this.byCallee.has(callee)) return this.byCallee.get(callee);
    const table = this.table(callee);
    this.byCallee.set(callee, table);
    return table;
  }

  private table(callee: TsSymbol): ReadonlyMap<TsSymbol, TsSignature | undefined> | undefined {
    const { backend } = this;
    const table = new Map<TsSymbol, TsSignature | undefined>();
    for (const signature of backend.signaturesOfType(backend.typeOfSymbol(callee), "call")) {
      const returned = backend.returnTypeOfSignature(signature);
      const flags = backend.typeFlags(returned);
      if (flags & SYMBOLLESS && !(flags & ~SYMBOLLESS)) continue;
      const symbol = flags & TypeFlag.Object ? backend.symbolOfType(returned) : undefined;
      if (!symbol || table.has(symbol)) return undefined;
      table.set(symbol, this.namesItsSpecParameter(signature) ? signature : undefined);
    }
    return table;
  }

  private namesItsSpecParameter(signature: TsSignature): boolean {
    const { backend } = this;
    return backend
      .typesOfSymbols(backend.signatureParameters(signature))
      .slice(1)
      .every((type) => this.closed(type));
  }

  /**
   * True when no instantiation can give the type a brand it does not have as declared: its
   * parts (through unions and intersections) are primitives, literals, or object types
   * whose members do not depend on type arguments (not mapped). Type parameters, mapped
   * types and the kinds toolwright has no flag for (conditional, indexed access) are not.
   */
  private closed(type: TsType): boolean {
    const { backend } = this;
    const flags = backend.typeFlags(type);
    if (flags & (TypeFlag.Union | TypeFlag.Intersection)) return backend.typeMembers(type).every((t) => this.closed(t));
    if (flags & TypeFlag.Object) return !(flags & TypeFlag.Mapped);
    return flags !== 0 && !(flags & TypeFlag.TypeParameter);
  }
}
