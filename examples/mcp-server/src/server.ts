#!/usr/bin/env node
/**
 * The notes MCP server. MCP hosts launch it as `node dist/server.js` and speak MCP over
 * stdio; with PORT set it serves Streamable HTTP on 127.0.0.1 instead.
 */
import { serveMcp } from "toolwright/mcp";
import { tools } from "./tools.js";

const port = process.env.PORT;
const handle = await serveMcp(tools, {
  name: "notes",
  version: "0.1.0",
  instructions: "Keep short notes. Search before deleting: deletes need the user's approval.",
  transport: port ? { http: { port: Number(port) } } : "stdio",
});
// stdout carries the protocol over stdio; say where the HTTP endpoint is on stderr.
if (handle.url) process.stderr.write(`notes MCP server on ${handle.url}\n`);
