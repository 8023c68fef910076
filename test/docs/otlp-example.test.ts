import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { startScriptedServer } from "../../scripts/demo/scripted-server.mjs";
import { TempProject } from "../compiler/project.js";

// The OpenTelemetry example of docs/observability.md, taken from the guide as written, is
// built with the transformer and run: its spans reach an OTLP/HTTP receiver on loopback,
// as they would reach a collector, with the service name and the run's span tree.

const ROOT = path.resolve(import.meta.dirname, "../..");
const GUIDE = "docs/observability.md";

function guideExample(): string {
  const guide = readFileSync(path.join(ROOT, GUIDE), "utf8");
  const section = guide.slice(guide.indexOf("### Sending spans to a collector"));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error(`${GUIDE} has no \`\`\`ts block under ### Sending spans to a collector`);
  return block;
}

interface OtlpSpan {
  readonly name: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly traceId: string;
  readonly attributes: readonly { readonly key: string; readonly value: Record<string, unknown> }[];
}

interface OtlpExport {
  readonly resourceSpans: readonly {
    readonly resource: { readonly attributes: OtlpSpan["attributes"] };
    readonly scopeSpans: readonly { readonly spans: readonly OtlpSpan[] }[];
  }[];
}

/** An OTLP/HTTP receiver on loopback: keeps the JSON bodies posted to /v1/traces. */
async function otlpReceiver(): Promise<{ server: Server; url: string; exports: OtlpExport[] }> {
  const exports: OtlpExport[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on("end", () => {
      if (req.method === "POST" && req.url === "/v1/traces" && req.headers["content-type"] === "application/json") {
        exports.push(JSON.parse(body) as OtlpExport);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      } else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, exports };
}

const project = new TempProject("otlp-example", {}, { types: ["node"] });
afterAll(() => rmSync(project.dir, { recursive: true, force: true }));

const text = (span: OtlpSpan, key: string) => span.attributes.find((a) => a.key === key)?.value.stringValue;

describe("the OpenTelemetry example of docs/observability.md", () => {
  it("builds, runs, and sends the run's spans to an OTLP receiver", async () => {
    project.write("src/main.ts", guideExample());
    const build = project.build();
    expect(build.output).toBe("");
    expect(build.status).toBe(0);

    const model = await startScriptedServer();
    const receiver = await otlpReceiver();
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ["dist/main.js"], {
        cwd: project.dir,
        env: {
          PATH: process.env.PATH,
          OPENAI_API_KEY: "test-key",
          OPENAI_BASE_URL: model.url,
          OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        },
      });
      expect(stdout).toContain("Here is what I found: weather said Paris: 18°C, light rain.");
    } finally {
      await model.close();
      receiver.server.closeAllConnections();
      await new Promise((resolve) => receiver.server.close(resolve));
    }

    const batches = receiver.exports.flatMap((e) => e.resourceSpans);
    expect(batches.length).toBeGreaterThan(0);
    for (const batch of batches) {
      expect(batch.resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "weather-desk" } });
    }
    const spans = batches.flatMap((b) => b.scopeSpans.flatMap((s) => s.spans));
    expect(spans.map((s) => s.name).sort()).toEqual([
      "chat gpt-5-mini",
      "chat gpt-5-mini",
      "execute_tool weather",
      "invoke_agent weather-desk",
    ]);
    const invoke = spans.find((s) => s.name === "invoke_agent weather-desk") as OtlpSpan;
    expect(invoke.parentSpanId || undefined).toBeUndefined();
    for (const span of spans.filter((s) => s !== invoke)) {
      expect(span.parentSpanId).toBe(invoke.spanId);
      expect(span.traceId).toBe(invoke.traceId);
    }
    const call = spans.find((s) => s.name === "execute_tool weather") as OtlpSpan;
    expect(text(call, "gen_ai.tool.name")).toBe("weather");
    expect(text(invoke, "gen_ai.agent.name")).toBe("weather-desk");
    expect(spans.filter((s) => s.name.startsWith("chat")).map((s) => text(s, "gen_ai.response.model"))).toEqual([
      "scripted-demo",
      "scripted-demo",
    ]);
  });
});
