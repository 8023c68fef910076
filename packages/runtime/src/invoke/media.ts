import type { MediaPart } from "../model/messages.js";

/** A `{ type: "text", text }` block, as MCP writes text beside images. */
interface TextPart {
  readonly type: "text";
  readonly text: string;
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** True for an image or audio part: exactly `type`, base64 `data` and a `mimeType` of that kind. */
export function isMediaPart(value: unknown): value is MediaPart {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const { type, data, mimeType, ...rest } = value as Record<string, unknown>;
  return (
    (type === "image" || type === "audio") &&
    typeof data === "string" &&
    BASE64.test(data) &&
    typeof mimeType === "string" &&
    mimeType.startsWith(`${type}/`) &&
    Object.keys(rest).length === 0
  );
}

function isTextPart(value: unknown): value is TextPart {
  const part = value as Partial<TextPart> | null;
  return typeof part === "object" && part !== null && part.type === "text" && typeof part.text === "string";
}

/** How the model reads a part it may not see: its kind, type and size. */
export function mediaLabel(part: MediaPart): string {
  return `[${part.type} ${part.mimeType}, ${Buffer.byteLength(part.data, "base64")} bytes]`;
}

/**
 * A tool's return value as media, when it is one: an image or audio part, or an array of
 * such parts with strings (or `{ type: "text", text }` blocks) among them. `text` is what a
 * model reads in place of the parts: the strings, and a label for each part.
 */
export function mediaResult(value: unknown): { readonly media: MediaPart[]; readonly text: string } | undefined {
  const items = Array.isArray(value) ? value : [value];
  if (!items.some(isMediaPart)) return undefined;
  if (!items.every((item) => isMediaPart(item) || typeof item === "string" || isTextPart(item))) return undefined;
  const media = items.filter(isMediaPart);
  const text = items
    .map((item) => (isMediaPart(item) ? mediaLabel(item) : typeof item === "string" ? item : (item as TextPart).text))
    .join("\n");
  return { media, text };
}
