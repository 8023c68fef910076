import { describe, expect, it } from "vitest";
import * as telemetry from "../../src/telemetry/index.js";
import * as trace from "../../src/trace/index.js";

// The public surfaces of toolwright/trace and toolwright/telemetry: a change here is a
// change users see, so it is made on purpose.
describe("subpath exports", () => {
  it("toolwright/trace", () => {
    expect(Object.keys(trace).sort()).toEqual([
      "RUN_RECORD_FORMAT",
      "RUN_RECORD_VERSION",
      "SavedRunError",
      "formatTrace",
      "readSavedRun",
      "renderRunPage",
    ]);
  });

  it("toolwright/telemetry", () => {
    expect(Object.keys(telemetry).sort()).toEqual(["openTelemetry"]);
  });
});
