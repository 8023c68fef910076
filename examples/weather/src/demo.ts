import { weatherTools } from "./tools.js";

// Prints what a model is shown for each tool: everything below was derived at build time
// from the signatures and TSDoc in tools.ts; nothing was written by hand.
for (const t of weatherTools) {
  console.log(`# ${t.name}`);
  console.log(t.description);
  console.log(`flags: ${JSON.stringify(t.flags)}`);
  console.log(JSON.stringify(t.parameters, null, 2));
  console.log("");
}
