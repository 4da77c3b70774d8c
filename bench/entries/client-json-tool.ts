// An app with a Client and one tool whose input is a plain JSON Schema. Like an app's main.ts
// it exports nothing and hands what it made to the page.
import { Client, tool } from '../../src/index.js';

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  input: {
    type: 'object',
    properties: { a: { type: 'number' }, b: { type: 'number' } },
    required: ['a', 'b'],
  },
  execute: ({ a, b }) => Number(a) + Number(b),
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
