// One command: `pnpm --filter ./examples/durable-refunds run demo` (builds, then runs this).
// Starts a throwaway PostgreSQL in a temp folder, runs the flow of src/main.ts, stops it.
// Set MODEL (e.g. "openai:gpt-5-mini", with OPENAI_API_KEY) to use a real model.
import { startLocalPostgres } from "../../scripts/local-postgres.mjs";
import { runDemo } from "./dist/main.js";

const pg = await startLocalPostgres();
try {
  console.log(`PostgreSQL on 127.0.0.1:${pg.config.port} (in ${pg.dir})`);
  const result = await runDemo(pg.config, process.env.MODEL || undefined);
  console.log(`run ${result.runId} paused: ${result.waiting.toolName} ${JSON.stringify(result.waiting.args)}`);
  console.log(`webhook approval: HTTP ${result.webhookStatus}`);
  console.log(`run completed: ${result.completed.output}`);
  console.log(`refunds made: ${JSON.stringify(result.refunds)}`);
} finally {
  pg.stop();
}
