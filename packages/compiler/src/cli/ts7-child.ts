// The child process of a cold TypeScript 7 run (see ts7-child-run.ts): derives the project
// in a Node started with one V8 background thread, and sends the parent what it found.
import type { LoadedProject } from "./project.js";
import { type RunCost, Ts7Project } from "./project-ts7.js";
import type { ChildReply, ChildRequest } from "./ts7-child-run.js";

function reply(message: ChildReply): Promise<void> {
  return new Promise((done) => process.send?.(message, () => done()));
}

process.once("message", async (request: ChildRequest) => {
  let cost: RunCost | undefined;
  const project = new Ts7Project(request.cwd, request.tsconfig, request.typescript, {
    ...request.options,
    progress: { update: (text) => void reply({ progress: text }), done() {} },
    ...(request.timing ? { timing: (run: RunCost) => (cost = run) } : {}),
  });
  try {
    const loaded: LoadedProject = await project.run();
    await reply({ loaded, known: project.knownFiles(), ...(cost ? { cost } : {}) });
  } catch (error) {
    await reply({ error: error instanceof Error ? error.message : String(error) });
  } finally {
    project.close();
    process.disconnect();
  }
});
