import { execFileSync } from "node:child_process";
import { afterAll, describe, expect, it } from "vitest";
import { TempProject } from "./project.js";

// A build that reports a tool error still emits JavaScript (tsc does unless noEmitOnError).
// When that output runs, creating the rejected tool must say the build rejected it, where
// and why, not that the transformer never ran.

const SOURCE = `import { Agent, tool } from "toolwright";

/**
 * Count the entries of a cache, for the support dashboard.
 * @param cache The cache to count.
 */
function countCache(cache: Map<string, number>): number {
  return cache.size;
}

/**
 * Look up a ticket by its id, for the support desk.
 * @param id Ticket id.
 */
function lookupTicket(id: string, page = 1): string {
  return id + page;
}

function desk() {
  return class Desk {
    /**
     * Escalate tickets to a human supervisor.
     * @param ids Ticket ids.
     */
    @tool
    escalate(ids: Set<string>): number {
      return ids.size;
    }
  };
}

const which = process.argv[2];
try {
  if (which === "call") tool(countCache);
  if (which === "list") new Agent({ name: "desk", model: "openai:gpt-5-mini", tools: [lookupTicket] });
  if (which === "decorator") desk();
} catch (error) {
  console.log((error as Error).message);
}
`;

const project = new TempProject("rejected", { requireAnnotations: true });
afterAll(() => project.remove());

function runEmitted(which: string): string {
  return execFileSync(process.execPath, ["dist/main.js", which], { cwd: project.dir, encoding: "utf8" });
}

describe("a tool the build rejected, run anyway", () => {
  it("tspc reports the errors and still emits", () => {
    project.write("src/main.ts", SOURCE);
    const build = project.build();
    expect(build.status).toBe(2);
    expect(build.output).toContain("error TS990001");
    expect(build.output).toContain("error TS990002");
  });

  it.each([
    [
      "call",
      "countCache",
      /src\/main\.ts:7:21: TW990001: tool "countCache": `cache` is `Map<string, number>`, which JSON cannot carry/,
    ],
    [
      "list",
      "lookupTicket",
      /src\/main\.ts:15:35: TW990002: tool "lookupTicket": parameter "page" has no type annotation/,
    ],
    [
      "decorator",
      "escalate",
      /src\/main\.ts:26:14: TW990001: tool "escalate": `ids` is `Set<string>`, which JSON cannot carry/,
    ],
  ])("a %s site: creating the tool throws the build's error with its place", (which, name, error) => {
    const message = runEmitted(which);
    expect(message).toContain(`tool "${name}" was rejected by the build, which reported: `);
    expect(message).toMatch(error);
    expect(message).toContain("Fix: correct the error above and rebuild.");
    expect(message).not.toContain("did not run");
  });
});
