// An app with a Client and one tool whose input is a plain JSON Schema. Bundled only for its size.
import { Client, tool } from '../../src/index.js';

const add = tool({
  name: 'add',
  description: 'Adds two numbers',
  input: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  execute: ({ a, b }) => Number(a) + Number(b),
});

export const client = new Client({ model: 'm', baseURL: 'http://127.0.0.1:1/v1', tools: [add], autoExecuteTools: true });
