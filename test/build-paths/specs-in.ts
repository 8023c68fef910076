import ts from "typescript";

/**
 * Reads back every spec literal in emitted JavaScript, in source order, whether its keys
 * are identifiers (tsc's printer) or strings (spliced JSON, as esbuild and Vite print it):
 * the tools' (`$toolwright`), or with `marker` the `schema<T>()` calls' (`$toolwrightSchema`).
 */
export function specsIn(js: string, marker: "$toolwright" | "$toolwrightSchema" = "$toolwright"): unknown[] {
  const file = ts.createSourceFile("out.js", js, ts.ScriptTarget.ES2022, true);
  const specs: unknown[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isObjectLiteralExpression(node) &&
      node.properties.some(
        (p) => p.name && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === marker,
      )
    ) {
      specs.push(new Function(`return (${node.getText(file)});`)());
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return specs;
}
