import { Agent, type Model } from "toolwright";
import { type Doc, DocsSearchTool } from "./docs-search.js";

/**
 * Read a help article in full.
 * @param id The article id from a search hit, e.g. "kb-2".
 * @readOnly
 */
export function readArticle(id: string): string {
  const doc = articles.find((d) => d.id === id);
  return doc ? `${doc.title}\n\n${doc.body}` : `No article "${id}".`;
}

/** The help articles the agent searches. */
export const articles: readonly Doc[] = [
  { id: "kb-1", title: "Reset your password", body: "Open Settings, then Security, then Reset password." },
  { id: "kb-2", title: "Change your email", body: "Open Settings, then Account, and edit the email field." },
  { id: "kb-3", title: "Delete your account", body: "Write to support; deletion takes 30 days." },
];

/** A help-desk agent: a protocol-object tool and a compiled function, side by side. */
export function helpAgent(model: Model | string): Agent {
  return new Agent({
    name: "help-desk",
    model,
    instructions: "Answer from the help articles only; cite the article id.",
    tools: [new DocsSearchTool(articles, 2), readArticle],
  });
}
