import { type JsonSchema, type Tool, type ToolArgs, type ToolContext, ToolError, type ToolFlags } from "toolwright";

/** One document of the index. */
export interface Doc {
  readonly id: string;
  readonly title: string;
  readonly body: string;
}

/** One search hit. */
export interface Hit {
  readonly id: string;
  readonly title: string;
  readonly score: number;
}

/**
 * A search index that is its own tool: an object following the `Tool` protocol
 * (name, description, parameters, execute). Its schema is written by hand because the
 * tool is configured at run time (the number of results depends on the index).
 */
export class DocsSearchTool implements Tool {
  readonly name = "searchDocs";
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly outputSchema: JsonSchema = {
    type: "array",
    items: {
      type: "object",
      properties: { id: { type: "string" }, title: { type: "string" }, score: { type: "number" } },
      required: ["id", "title", "score"],
    },
  };
  readonly flags: ToolFlags = { readOnly: true };
  readonly timeoutMs = 2_000;

  constructor(
    private readonly docs: readonly Doc[],
    private readonly maxResults = 3,
  ) {
    this.description = `Search the ${docs.length} product help articles by keywords; returns up to ${maxResults} hits, best first.`;
    this.parameters = {
      type: "object",
      properties: {
        query: { type: "string", minLength: 2, description: "Keywords, e.g. 'reset password'." },
        limit: { type: "integer", minimum: 1, maximum: maxResults, description: `How many hits (1-${maxResults}).` },
      },
      required: ["query"],
      additionalProperties: false,
    };
  }

  execute(args: ToolArgs, ctx: ToolContext<never>): Hit[] {
    const words = String(args.query).toLowerCase().split(/\W+/).filter(Boolean);
    const hits = this.docs
      .map((doc) => ({ id: doc.id, title: doc.title, score: score(`${doc.title} ${doc.body}`.toLowerCase(), words) }))
      .filter((hit) => hit.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, typeof args.limit === "number" ? args.limit : this.maxResults);
    ctx.log.debug("search", { query: args.query, hits: hits.length });
    if (hits.length === 0) throw new ToolError(`Nothing matches "${args.query}"; try fewer or other keywords.`);
    return hits;
  }
}

function score(text: string, words: readonly string[]): number {
  return words.reduce((sum, word) => sum + (text.includes(word) ? 1 : 0), 0);
}
