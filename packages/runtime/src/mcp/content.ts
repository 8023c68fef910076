import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { mediaLabel } from "../invoke/media.js";

type ContentBlock = CallToolResult["content"][number];

/**
 * What a model can read of one MCP content block. Text goes through as it is; binary
 * blocks (images, audio, embedded blobs) are named with their type and size rather than
 * pasted as base64, which would spend the context on noise.
 */
function blockText(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
    case "audio":
      return mediaLabel(block);
    case "resource_link":
      return `[resource link ${block.uri}${block.description ? `: ${block.description}` : ""}]`;
    case "resource": {
      const resource = block.resource;
      return "text" in resource
        ? resource.text
        : `[resource ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ""}]`;
    }
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

/** The text of a tool result's content blocks, one block per line. */
export function contentText(content: CallToolResult["content"]): string {
  return content.map(blockText).join("\n");
}
