/** Cold start, zod + the Vercel AI SDK: define 200 `tool()`s with zod schemas, validate one call the SDK's way. */
import { pathToFileURL } from "node:url";
import { asSchema } from "ai";
import { SHAPES } from "../generate/shapes.mjs";
import { reportFirstCall } from "./report.mjs";

const { tools } = await import(pathToFileURL(process.argv[2]).href);
const result = await asSchema(tools[0].inputSchema).validate(SHAPES[0].valid);
reportFirstCall(result.success);
