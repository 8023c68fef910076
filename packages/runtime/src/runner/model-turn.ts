import { ToolwrightError } from "../errors.js";
import type { ModelRequest, ModelResponse, ModelStreamEvent } from "../model/model.js";
import type { RunEnv } from "./env.js";
import { chainModel } from "./hooks.js";
import type { AgentStreamEvent } from "./run-result.js";

/**
 * One model turn through the model middleware: streamed when the caller streams and the
 * model can, otherwise one `generate()` seen as a single `finish` event. Re-yields the
 * turn's events tagged with the step and returns the whole response.
 */
export async function* modelTurn(
  env: RunEnv,
  request: ModelRequest,
  step: number,
): AsyncGenerator<AgentStreamEvent, ModelResponse> {
  const call = chainModel(env.config.modelMiddleware, (req) => base(env, req));
  // A typed answer streams as partial values too (only read when someone reads events).
  const watch = env.events ? env.answer?.watch() : undefined;
  let response: ModelResponse | undefined;
  for await (const event of call(request)) {
    switch (event.type) {
      case "text-delta":
        yield { type: "text-delta", step, delta: event.delta };
        break;
      case "tool-call-start":
        yield { type: "tool-call-start", step, index: event.index, callId: event.id, toolName: event.name };
        break;
      case "tool-call-delta":
        yield { type: "tool-call-delta", step, index: event.index, delta: event.delta };
        break;
      case "tool-call-end":
        yield { type: "tool-call-end", step, index: event.index, call: event.call };
        break;
      case "retry":
        yield { type: "model-retry", step, attempt: event.attempt, error: event.error };
        break;
      case "finish":
        response = event.response;
        break;
    }
    const output = watch?.(event);
    if (output !== undefined) yield { type: "partial-output", step, output: output as never };
  }
  if (!response) throw noFinish(env, step);
  return response;
}

/**
 * One unstreamed turn without model middleware: the model's `generate()` itself, as
 * {@link modelTurn} would return it (it would see one `finish` event and no other).
 */
export async function generatedTurn(env: RunEnv, request: ModelRequest, step: number): Promise<ModelResponse> {
  const response = await env.model.generate(request);
  if (!response) throw noFinish(env, step);
  return response;
}

function noFinish(env: RunEnv, step: number): ToolwrightError {
  return new ToolwrightError(
    `model "${env.model.id}" ended turn ${step} without a finish event; a Model's stream (and every model middleware) must end with one.`,
  );
}

function base(env: RunEnv, request: ModelRequest): AsyncIterable<ModelStreamEvent> {
  const { model } = env;
  return env.streaming && model.stream ? model.stream(request) : generated(model.generate(request));
}

async function* generated(response: Promise<ModelResponse>): AsyncGenerator<ModelStreamEvent> {
  yield { type: "finish", response: await response };
}
