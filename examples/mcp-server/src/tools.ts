/**
 * The notes tools: plain typed functions. The toolwright transformer reads each signature
 * and TSDoc comment at build time and writes the JSON Schema an MCP client sees.
 */
import { type ToolContext, ToolError, tool } from "toolwright";
import { type Note, NoteStore } from "./store.js";

/** One store per server process; a real server would keep notes in a database. */
const store = new NoteStore();

/**
 * Save a new note and return it with its id.
 * @param title A short title, e.g. "Groceries".
 * @param body The text of the note.
 * @param tags Labels to find the note by later, e.g. ["home"].
 */
function addNote(title: string, body: string, tags: string[] = []): Note {
  return store.add(title, body, tags);
}

/**
 * Find notes whose title, body or tags contain the query (case-insensitive), newest first.
 * @param query Text to look for, e.g. "milk".
 * @param limit The most notes to return.
 * @readOnly
 */
function searchNotes(query: string, limit = 5): Note[] {
  return store.search(query, limit);
}

/**
 * Delete a note for good. Each call waits for a person's approval.
 * @param id The note's id, as returned by addNote, e.g. "n1".
 */
function deleteNote(id: string, ctx: ToolContext): { deleted: string } {
  if (!store.delete(id)) throw new ToolError(`No note "${id}". Search first to find the note's id.`);
  ctx.log.info("note deleted", { id });
  return { deleted: id };
}

/**
 * Count the words and characters of a text.
 * @param text Any text.
 * @readOnly
 * @idempotent
 */
function countWords(text: string): { words: number; characters: number } {
  return { words: text.split(/\s+/).filter(Boolean).length, characters: text.length };
}

// Flags come from TSDoc tags (@readOnly, @idempotent) or from options, which win. They
// reach MCP clients as annotations; a tool that states nothing is taken as destructive.
export const add = tool(addNote, { readOnly: false, destructive: false, openWorld: false });
export const search = tool(searchNotes, { openWorld: false });
export const remove = tool(deleteNote, { destructive: true, needsApproval: true, openWorld: false });
export const wordCount = tool(countWords, { openWorld: false });

/** Every tool of this server, for `serveMcp` (or `toolwright mcp dist/tools.js`). */
export const tools = [add, search, remove, wordCount];
