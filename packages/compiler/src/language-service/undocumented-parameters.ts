import type { JsonSchema } from "toolwright";
import type ts from "typescript";
import type { Backend, TsSignature } from "../backend/backend.js";
import { toolwrightDiagnostic } from "../backend/ts5/ts5-diagnostics.js";
import { signatureOf } from "../derive.js";
import type { DerivedSite } from "../derive-specs.js";
import { DiagnosticCode } from "../diagnostics.js";
import { TS } from "../typescript-host.js";

/** A parameter (or destructured property) the model sees with no description, and the node that declares it. */
export interface UndocumentedParameter {
  /** The name a `@param` tag gives it. */
  readonly name: string;
  /** The parameter declaration, or the binding element of a destructured parameter. */
  readonly node: ts.ParameterDeclaration | ts.BindingElement;
  /** The function (or method) whose TSDoc describes it. */
  readonly fn: ts.SignatureDeclaration;
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
  const signatures = signatureOf(derived.site, backend);
  // A site with a spec has exactly one signature (overloads are an error).
  const signature = Array.isArray(signatures) ? signatures[0] : (signatures as TsSignature);
  const fn = signature && (backend.signatureDeclaration(signature) as unknown as ts.SignatureDeclaration | undefined);
  if (!fn) return [];
  const properties = (derived.spec.parameters.properties ?? {}) as Record<string, JsonSchema>;
  const found: UndocumentedParameter[] = [];
  for (const parameter of fn.parameters) {
    if (TS.isIdentifier(parameter.name)) {
      const name = parameter.name.text;
      if (lacksDescription(properties[name])) found.push({ name, node: parameter, fn });
    } else if (TS.isObjectBindingPattern(parameter.name)) {
      for (const element of parameter.name.elements) {
        const name = (element.propertyName ?? element.name).getText();
        if (lacksDescription(properties[name])) found.push({ name, node: element, fn });
      }
    }
  }
  return found;
}

/** The editor suggestion for one {@link UndocumentedParameter}. */
export function undocumentedHint(tool: string, parameter: UndocumentedParameter): ts.Diagnostic {
  const at = TS.isParameter(parameter.node) ? parameter.node.name : parameter.node;
  return toolwrightDiagnostic(
    at,
    DiagnosticCode.undocumentedParameter,
    `tool "${tool}": the model sees "${parameter.name}" with no description. Fix: add "@param ${parameter.name} <what to pass>" to the function's TSDoc.`,
    "suggestion",
  );
}
