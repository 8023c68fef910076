/**
 * What a tool touches, for the run policy: a run that has read private data and
 * untrusted content and can then send data out has all it needs to leak (the "lethal
 * trifecta"), so the policy watches these three.
 */

/** The capability names a tool can declare (`@capability private_data egress`, or `capabilities: [...]`). */
export const CAPABILITIES = ["private_data", "untrusted_content", "egress"] as const;

/**
 * - `private_data`: reads what only this user or organisation should see (mail, files, records);
 * - `untrusted_content`: returns text that someone other than the user wrote (web pages,
 *   inbound mail, issue comments, memory), which can carry instructions;
 * - `egress`: can send data out of the process (HTTP requests, mail, posts, uploads).
 */
export type Capability = (typeof CAPABILITIES)[number];

/** True when `name` is one of {@link CAPABILITIES}. */
export function isCapability(name: unknown): name is Capability {
  return typeof name === "string" && (CAPABILITIES as readonly string[]).includes(name);
}

/** What a run has touched so far: each capability with the first tool that touched it. */
export type Touched = Partial<Record<Capability, string>>;

/** How each capability is described to the model and to people. */
export const CAPABILITY_WORDS: Readonly<Record<Capability, string>> = {
  private_data: "private data",
  untrusted_content: "untrusted content",
  egress: "a way to send data out",
};
