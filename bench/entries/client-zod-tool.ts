// An app with a Client and one tool whose input is the app's own zod (classic) schema: the figure
// includes that zod, which the app ships for its own schemas. Like an app's main.ts it exports
// nothing and hands what it made to the page.
import { z } from 'zod';
import { Client, tool } from '../../src/index.js';

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  input: z.object({ a: z.number(), b: z.number() }),
  execute: ({ a, b }) => a + b,
});

Object.assign(globalThis, {
  openAgent: {
    client: new Client({
      model: 'm',
      baseURL: 'http://127.0.0.1:1/v1',
      tools: [add],
      autoExecuteTools: true,
    }),
  },
});
