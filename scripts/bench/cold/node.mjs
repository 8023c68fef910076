/** Cold-start baseline: a Node process that imports nothing and reports at once. */
import { reportFirstCall } from "./report.mjs";

reportFirstCall(true);
