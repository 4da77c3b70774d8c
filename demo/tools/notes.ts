import { createStore, get, set } from 'idb-keyval';
import { z } from 'zod';
import { tool, type Tool } from '../../src/index.js';

const store = createStore('open-agent-demo-notes', 'notes');

/** A notes tool whose notes persist in IndexedDB (they survive reloads). */
export function notesTool(needsApproval: boolean): Tool {
  return tool({
    name: 'notes',
    description:
      'Keeps short notes for the user across sessions: "add" a note, "list" all notes, or "clear" them.',
    input: z.object({
      action: z.enum(['add', 'list', 'clear']),
      text: z.string().optional().describe('The note, for "add"'),
    }),
    needsApproval,
    execute: async ({ action, text }) => {
      // Stored by this tool only, always as a string array.
      const notes = ((await get<string[]>('notes', store)) ?? []).filter(
        (note) => typeof note === 'string',
      );
      if (action === 'list') return { notes };
      if (action === 'clear') {
        await set('notes', [], store);
        return { cleared: notes.length };
      }
      if (!text) throw new Error('"add" needs the text of the note');
      await set('notes', [...notes, text], store);
      return { added: text, count: notes.length + 1 };
    },
  });
}
