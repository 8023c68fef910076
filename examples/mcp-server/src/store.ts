/** A note as the tools return it. */
export interface Note {
  /** Stable id, e.g. "n1". */
  id: string;
  title: string;
  body: string;
  tags: string[];
  /** When it was saved (ISO 8601). */
  createdAt: string;
}

/** An in-memory note store, so the example runs with nothing else installed. */
export class NoteStore {
  readonly #notes = new Map<string, Note>();
  #next = 1;

  add(title: string, body: string, tags: readonly string[]): Note {
    const note: Note = { id: `n${this.#next++}`, title, body, tags: [...tags], createdAt: new Date().toISOString() };
    this.#notes.set(note.id, note);
    return note;
  }

  search(query: string, limit: number): Note[] {
    const needle = query.toLowerCase();
    return [...this.#notes.values()]
      .filter((n) => [n.title, n.body, ...n.tags].some((field) => field.toLowerCase().includes(needle)))
      .reverse()
      .slice(0, limit);
  }

  delete(id: string): boolean {
    return this.#notes.delete(id);
  }
}
