/**
 * What the compiler writes in place of a spec at a tool site whose derivation failed
 * (a build error such as TW990001): the errors, each with its place. The build reported
 * them; when its output runs anyway (tsc emits despite errors unless `noEmitOnError`),
 * creating the tool throws with them instead of using a partial schema.
 */
export interface RejectedSpec {
  readonly $toolwrightRejected: 1;
  /** Each build error at the site, as `file:line:column: TWnnnnnn: message`. */
  readonly errors: readonly string[];
}

/** True when `value` is the compiler's marker for a tool site the build rejected. */
export function isRejectedSpec(value: unknown): value is RejectedSpec {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { $toolwrightRejected?: unknown }).$toolwrightRejected === 1 &&
    Array.isArray((value as { errors?: unknown }).errors)
  );
}
