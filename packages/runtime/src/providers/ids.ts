import { randomBytes } from "node:crypto";

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/**
 * A made-up tool call id for servers that send none. Nine letters and digits: the
 * shortest form every API takes, and exactly what Mistral's chat template demands.
 */
export function synthesizeCallId(): string {
  return Array.from(randomBytes(9), (b) => ALPHABET[b % ALPHABET.length]).join("");
}
