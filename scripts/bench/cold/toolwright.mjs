/** Cold start, toolwright: import 200 compiled tools, validate one call (its schema compiles on this first use). */
import { pathToFileURL } from "node:url";
import { validateArguments } from "toolwright";
import { SHAPES } from "../generate/shapes.mjs";
import { reportFirstCall } from "./report.mjs";

const { tools } = await import(pathToFileURL(process.argv[2]).href);
reportFirstCall(validateArguments(tools[0], SHAPES[0].valid).ok);
