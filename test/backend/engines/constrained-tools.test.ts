import { describe, expect, it } from 'vitest';
import { Validator } from '@cfworker/json-schema';
import { ConstrainedAnswerReader } from '../../../src/backend/engines/constrained-answer-reader.js';
import {
  constrainTools,
  textOnlyMessages,
} from '../../../src/backend/engines/constrained-tools.js';
import type { ChatRequest } from '../../../src/types/chat-request.js';

const add = {
  type: 'function' as const,
  function: {
    name: 'add',
    description: 'Adds two integers.',
    parameters: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { a: { type: 'integer' }, b: { type: 'integer' } },
      required: ['a', 'b'],
      additionalProperties: false,
    },
  },
};
const request = (extra: Partial<ChatRequest> = {}): ChatRequest => ({
  model: 'm',
  stream: true,
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Add 2 and 3' },
  ],
  tools: [add],
  ...extra,
});

describe('constrainTools', () => {
  it('admits an answer or calls of registered tools with schema-valid arguments, nothing else', () => {
    const constrained = constrainTools(request());
    if (!constrained) throw new Error('expected a constraint');
    const validator = new Validator(constrained.schema, '2020-12');
    const valid = (value: unknown) => validator.validate(value).valid;
    expect(valid({ answer: 'Five.' })).toBe(true);
    expect(valid({ tool_calls: [{ name: 'add', arguments: { a: 2, b: 3 } }] })).toBe(true);
    expect(valid({ tool_calls: [{ name: 'add', arguments: { a: '2', b: 3 } }] })).toBe(false);
    expect(valid({ tool_calls: [{ name: 'sub', arguments: { a: 2, b: 3 } }] })).toBe(false);
    expect(valid({ tool_calls: [] })).toBe(false);
    expect(valid({ answer: 'x', extra: 1 })).toBe(false);
  });

  it("tells the model about the tools in the system prompt, and drops tools for 'none'", () => {
    const constrained = constrainTools(request());
    expect(constrained?.messages[0]?.role).toBe('system');
    expect(constrained?.messages[0]?.content).toMatch(
      /^Be brief\.\n\nYou can use these tools:\n- add: Adds two integers\./,
    );
    expect(constrainTools(request({ tool_choice: 'none' }))).toBeUndefined();
  });

  it("admits only calls with tool_choice 'required'", () => {
    const constrained = constrainTools(request({ tool_choice: 'required' }));
    const validator = new Validator(constrained?.schema as never, '2020-12');
    expect(validator.validate({ answer: 'no' }).valid).toBe(false);
    expect(
      validator.validate({ tool_calls: [{ name: 'add', arguments: { a: 1, b: 1 } }] }).valid,
    ).toBe(true);
  });
});

describe('textOnlyMessages', () => {
  it('writes a call turn as the JSON the model writes, and one round of results as one user message', () => {
    const messages = textOnlyMessages([
      { role: 'user', content: 'Add' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'add', arguments: '{"a":2,"b":3}' } },
          { id: 'c2', type: 'function', function: { name: 'add', arguments: '{"a":1,"b":1}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '5' },
      { role: 'tool', tool_call_id: 'c2', content: '2' },
    ]);
    expect(messages).toEqual([
      { role: 'user', content: 'Add' },
      {
        role: 'assistant',
        content:
          '{"tool_calls":[{"name":"add","arguments":{"a":2,"b":3}},{"name":"add","arguments":{"a":1,"b":1}}]}',
      },
      { role: 'user', content: 'Tool results:\nadd: 5\nadd: 2' },
    ]);
  });
});

describe('ConstrainedAnswerReader', () => {
  it('streams an answer as decoded text, whatever the split', () => {
    const output = '{ "answer" : "Line\\none \\"q\\" \\u00e9\\\\"}';
    for (let size = 1; size <= 5; size++) {
      const reader = new ConstrainedAnswerReader();
      let text = '';
      for (let index = 0; index < output.length; index += size)
        text += reader.push(output.slice(index, index + size));
      expect(text).toBe('Line\none "q" é\\');
      expect(reader.end()).toEqual([]);
    }
  });

  it('reads calls once the JSON is complete, and no text from them', () => {
    const reader = new ConstrainedAnswerReader();
    let text = '';
    for (const piece of ['{"tool', '_calls": [{"name": "add", "arguments": {"a": 2, "b": 3}}]}'])
      text += reader.push(piece);
    expect(text).toBe('');
    expect(reader.end()).toEqual([{ name: 'add', arguments: '{"a":2,"b":3}' }]);
  });

  it('reads no calls from JSON cut off by max_tokens', () => {
    const reader = new ConstrainedAnswerReader();
    reader.push('{"tool_calls": [{"name": "add", "argu');
    expect(reader.end()).toEqual([]);
  });
});
