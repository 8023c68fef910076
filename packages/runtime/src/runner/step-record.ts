import type { ModelResponse } from "../model/model.js";
import type { RunEnv } from "./env.js";
import type { StepRecord } from "./types.js";
import { costOf } from "./usage.js";

/**
 * The record of one model turn as the run keeps it: what the model said and spent, when
 * the request started and how long the answer took. Its calls are filled in as they settle.
 */
export function stepRecord(env: RunEnv, step: number, response: ModelResponse, startedAt: number): StepRecord {
  return {
    step,
    text: response.message.content,
    usage: response.usage,
    calls: [],
    model: env.model.id,
    startedAt,
    durationMs: Date.now() - startedAt,
    costUsd: costOf(response.usage, env.price),
    finishReason: response.finishReason,
    ...(response.model === undefined ? {} : { responseModel: response.model }),
  };
}
