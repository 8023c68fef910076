import { AgentConfigError } from "../errors.js";
import type { Usage } from "../invoke/context.js";
import type { TokenUsage } from "../model/messages.js";

/** Prices of one model in US dollars per million tokens. */
export interface ModelPrice {
  readonly inputPerMTok: number;
  readonly outputPerMTok: number;
  /** Price of input tokens read from the prompt cache; defaults to `inputPerMTok`. */
  readonly cachedInputPerMTok?: number;
}

/** Prices keyed by model id (`provider:model`). */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

/**
 * List prices of a few common models (USD per million tokens, as published in 2026).
 * Pass `prices` to the Agent to add models or correct these; the user's entry wins.
 */
export const DEFAULT_PRICES: PriceTable = {
  "openai:gpt-5": { inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  "openai:gpt-5-mini": { inputPerMTok: 0.25, cachedInputPerMTok: 0.025, outputPerMTok: 2 },
  "openai:gpt-5-nano": { inputPerMTok: 0.05, cachedInputPerMTok: 0.005, outputPerMTok: 0.4 },
  "openai:gpt-4.1-mini": { inputPerMTok: 0.4, cachedInputPerMTok: 0.1, outputPerMTok: 1.6 },
  "openai:gpt-4o-mini": { inputPerMTok: 0.15, cachedInputPerMTok: 0.075, outputPerMTok: 0.6 },
  "anthropic:claude-sonnet-4-5": { inputPerMTok: 3, cachedInputPerMTok: 0.3, outputPerMTok: 15 },
  "anthropic:claude-haiku-4-5": { inputPerMTok: 1, cachedInputPerMTok: 0.1, outputPerMTok: 5 },
  "google:gemini-2.5-pro": { inputPerMTok: 1.25, cachedInputPerMTok: 0.125, outputPerMTok: 10 },
  "google:gemini-2.5-flash": { inputPerMTok: 0.3, cachedInputPerMTok: 0.03, outputPerMTok: 2.5 },
};

/** A zeroed running tally. */
export function emptyUsage(): Usage {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, requests: 0, costUsd: 0 };
}

/** Looks a model's price up, the user's table first; `undefined` when neither knows it. */
export function priceOf(modelId: string, prices: PriceTable | undefined): ModelPrice | undefined {
  return prices?.[modelId] ?? DEFAULT_PRICES[modelId];
}

/** Refuses a budget that cannot be enforced because the model has no known price. */
export function requirePrice(modelId: string, prices: PriceTable | undefined, agentName: string): ModelPrice {
  const price = priceOf(modelId, prices);
  if (price) return price;
  throw new AgentConfigError(
    `agent "${agentName}" has maxCostUsd but no price is known for model "${modelId}". ` +
      `Add prices: { "${modelId}": { inputPerMTok, outputPerMTok, cachedInputPerMTok } } to the Agent options.`,
  );
}

/** Cost in USD of one response's tokens. */
export function costOf(tokens: TokenUsage, price: ModelPrice | undefined): number {
  if (!price) return 0;
  const cached = Math.min(tokens.cachedInputTokens, tokens.inputTokens);
  const fresh = tokens.inputTokens - cached;
  const cachedPrice = price.cachedInputPerMTok ?? price.inputPerMTok;
  return (fresh * price.inputPerMTok + cached * cachedPrice + tokens.outputTokens * price.outputPerMTok) / 1_000_000;
}

/** Adds one model response to the running tally, in place (tools read it live through `ctx.usage`). */
export function addResponse(usage: Usage, tokens: TokenUsage, price: ModelPrice | undefined): void {
  usage.inputTokens += tokens.inputTokens;
  usage.outputTokens += tokens.outputTokens;
  usage.cachedInputTokens += tokens.cachedInputTokens;
  usage.requests += 1;
  usage.costUsd += costOf(tokens, price);
}

/** Rolls a finished sub-run's tally up into its parent's, in place. */
export function addUsage(into: Usage, from: Readonly<Usage>): void {
  into.inputTokens += from.inputTokens;
  into.outputTokens += from.outputTokens;
  into.cachedInputTokens += from.cachedInputTokens;
  into.requests += from.requests;
  into.costUsd += from.costUsd;
}
