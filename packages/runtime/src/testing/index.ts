export type { FakeModelOptions, ScriptedCall, ScriptedTurn, ScriptStep } from "./fake-model.js";
export { FakeModel } from "./fake-model.js";
