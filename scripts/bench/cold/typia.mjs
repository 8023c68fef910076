/** Cold start, typia: import 200 validators generated at build time, validate one call. */
import { pathToFileURL } from "node:url";
import { SHAPES } from "../generate/shapes.mjs";
import { reportFirstCall } from "./report.mjs";

const { validators } = await import(pathToFileURL(process.argv[2]).href);
reportFirstCall(validators[0](SHAPES[0].valid).success);
