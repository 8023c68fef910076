import type { ToolContext } from "../invoke/context.js";
import type { FunctionTool, ToolInput } from "./tool-types.js";

// The deps a function asks for through a `ToolContext<D>` parameter (`never` without one, or
// for a plain `ToolContext`, which asks for nothing in particular).
type ContextDeps<P> = P extends ToolContext<infer D> ? (unknown extends D ? never : D) : never;
type FunctionDeps<F> = F extends (...args: infer A) => unknown ? ContextDeps<A[number]> : never;
// A bare function, or a tool made by `tool(fn)`; protocol objects declare no deps.
type InputDeps<T> =
  T extends FunctionTool<infer F> ? FunctionDeps<F> : T extends (...args: never[]) => unknown ? FunctionDeps<T> : never;
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * What `agent.run(input, { deps })` must be given for these tools: every `ToolContext<D>`
 * the tools take, intersected (`unknown` when none asks for deps).
 *
 * @example
 * ```ts
 * function lookup(id: string, ctx: ToolContext<{ db: Db }>) { ... }
 * type D = ToolDeps<[typeof lookup]>; // { db: Db }
 * ```
 */
export type ToolDeps<Tools extends readonly ToolInput[]> = [InputDeps<Tools[number]>] extends [never]
  ? unknown
  : UnionToIntersection<InputDeps<Tools[number]>>;
