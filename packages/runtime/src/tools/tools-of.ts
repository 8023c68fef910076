import { toolRecordOf } from "./decorators.js";
import { functionTool } from "./function-tool.js";
import type { FunctionTool } from "./tool-types.js";

/**
 * The tools of a class instance: one per `@tool` method found on its prototype chain,
 * with `this` bound to `instance`, sorted by name. A method overridden in a subclass is
 * taken once, from the most derived class.
 *
 * @example
 * ```ts
 * const agent = new Agent({ model, tools: toolsOf(new Orders(db)) });
 * ```
 */
export function toolsOf(instance: object): FunctionTool[] {
  const seen = new Set<string | symbol>();
  const tools: FunctionTool[] = [];
  for (
    let proto = Object.getPrototypeOf(instance);
    proto && proto !== Object.prototype;
    proto = Object.getPrototypeOf(proto)
  ) {
    for (const key of Reflect.ownKeys(proto)) {
      if (key === "constructor" || seen.has(key)) continue;
      seen.add(key);
      const record = toolRecordOf(Object.getOwnPropertyDescriptor(proto, key)?.value);
      if (!record) continue;
      const method = Object.getOwnPropertyDescriptor(proto, key)?.value as (...args: unknown[]) => unknown;
      tools.push(functionTool(method.bind(instance), record.options, record.spec));
    }
  }
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
