/**
 * Tool names from MCP servers follow the server's own rules (dots, slashes, spaces, any
 * length); model APIs take only the portable rule `^[a-zA-Z][a-zA-Z0-9_-]{0,63}$`.
 * These functions map one onto the other predictably, so the same server always gives the
 * same names.
 */

const MAX_NAME_LENGTH = 64;

/**
 * Turns any string into a name that every provider accepts: characters outside
 * `[a-zA-Z0-9_-]` become `_`, a name that does not start with a letter gets a `t` in front,
 * and the result is cut to 64 characters.
 *
 * @example
 * ```ts
 * portableName("files/read.text"); // "files_read_text"
 * portableName("2fa");             // "t2fa"
 * ```
 */
export function portableName(raw: string): string {
  let name = raw.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (!/^[a-zA-Z]/.test(name)) name = `t${name}`;
  return name.slice(0, MAX_NAME_LENGTH);
}

/**
 * Makes `wanted` unique among `taken` by appending `_2`, `_3`, ... (shortening the name
 * when needed to stay within 64 characters). `taken` is updated.
 */
export function uniqueName(wanted: string, taken: Set<string>): string {
  let name = wanted;
  for (let n = 2; taken.has(name); n++) {
    const suffix = `_${n}`;
    name = `${wanted.slice(0, MAX_NAME_LENGTH - suffix.length)}${suffix}`;
  }
  taken.add(name);
  return name;
}
