/** Cold start, ajv: compile all 200 JSON Schemas at start-up (the usual way), validate one call. */
import { pathToFileURL } from "node:url";
import { Ajv } from "ajv";
import { SHAPES } from "../generate/shapes.mjs";
import { reportFirstCall } from "./report.mjs";

const { schemas } = await import(pathToFileURL(process.argv[2]).href);
const ajv = new Ajv({ allErrors: true });
const validators = schemas.map((schema) => ajv.compile(schema));
reportFirstCall(validators[0](SHAPES[0].valid));
