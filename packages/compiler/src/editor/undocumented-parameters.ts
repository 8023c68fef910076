import type { JsonSchema } from "toolwright";
import type { Backend, TsSignature } from "../backend/backend.js";
import type { BindingElement, FunctionLike, Node, ParameterDeclaration } from "../backend/syntax.js";
import type { DerivedSite } from "../derivation.js";
import { signatureOf } from "../derive.js";
import { DiagnosticCode, type Finding, finding } from "../diagnostics.js";

/** A parameter (or destructured property) the model sees with no description, and the node that declares it. */
export interface UndocumentedParameter {
  /** The name a `@param` tag gives it. */
  readonly name: string;
  /** The parameter declaration, or the binding element of a destructured parameter. */
  readonly node: ParameterDeclaration | BindingElement;
  /** The function (or method) whose TSDoc describes it. */
  readonly fn: FunctionLike;
}

function lacksDescription(schema: JsonSchema | undefined): boolean {
  return schema !== undefined && typeof schema.description !== "string";
}

/**
 * Reads the derived spec back onto the function's parameters: each property of
 * `parameters` with no description, at the declaration it came from. Context parameters
 * have no property and are never reported.
 */
export function undocumentedParameters(derived: DerivedSite, backend: Backend): UndocumentedParameter[] {
  const S = backend.syntax;
  const signatures = signatureOf(derived.site, backend);
  // A site with a spec has exactly one signature (overloads are an error).
  const signature = Array.isArray(signatures) ? signatures[0] : (signatures as TsSignature);
  const fn = signature && (backend.signatureDeclaration(signature) as FunctionLike | undefined);
  if (!fn?.parameters) return [];
  const properties = (derived.spec.parameters.properties ?? {}) as Record<string, JsonSchema>;
  const found: UndocumentedParameter[] = [];
  for (const parameter of fn.parameters) {
    if (S.isIdentifier(parameter.name)) {
      const name = parameter.name.text;
      if (lacksDescription(properties[name])) found.push({ name, node: parameter, fn });
    } else if (S.isObjectBindingPattern(parameter.name)) {
      for (const element of parameter.name.elements as readonly BindingElement[]) {
        const key = element.propertyName ?? element.name;
        const name = key?.getText();
        if (name !== undefined && lacksDescription(properties[name])) found.push({ name, node: element, fn });
      }
    }
  }
  return found;
}

/** The editor suggestion (TW990100) for one {@link UndocumentedParameter}, at its name. */
export function undocumentedFinding(tool: string, parameter: UndocumentedParameter, backend: Backend): Finding {
  const at: Node = backend.syntax.isParameter(parameter.node) ? parameter.node.name : parameter.node;
  return finding(
    at,
    DiagnosticCode.undocumentedParameter,
    `tool "${tool}": the model sees "${parameter.name}" with no description. Fix: add "@param ${parameter.name} <what to pass>" to the function's TSDoc.`,
    "suggestion",
  );
}
