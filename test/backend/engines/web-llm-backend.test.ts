import { describe, expect, it } from 'vitest';
import { webLLMBackend } from '../../../src/backend/engines/web-llm-backend.js';
import { Client } from '../../../src/loop/client.js';
import { collect, types } from '../../support/collect.js';
import { fakeWebLLMEngine } from '../../support/fake-web-llm-engine.js';
import { add } from '../../loop/fixtures.js';

// WebLLM 0.2.86 as its source behaves: Hermes function calling forces a JSON array of calls,
// streamed as content, then repeated without ids in the final chunk; no system prompt beside
// tools; assistant content must be a string. The fake runs WebLLM's own request checks.

const HERMES = 'Hermes-2-Pro-Llama-3-8B-q4f16_1-MLC';
const QWEN = 'Qwen2.5-1.5B-Instruct-q4f16_1-MLC';
const callAdd = ['[{"name": "add", ', '"arguments": {"a": 2, ', '"b": 3}}]'];
const options = { model: HERMES, systemPrompt: 'Be brief.', tools: [add], autoExecuteTools: true };

describe('webLLMBackend', () => {
  it('is needed: WebLLM itself refuses a system prompt beside tools', async () => {
    const engine = fakeWebLLMEngine(HERMES, [callAdd]);
    const client = new Client({ ...options, backend: engine });

    await expect(collect(client.run('2 + 3?'))).rejects.toThrow(
      /cannot specify customized system prompt/,
    );
  });

  it('runs a tool round: calls from the final chunk (the JSON is not shown), then a text answer without tools', async () => {
    const engine = fakeWebLLMEngine(HERMES, [callAdd, ['It is ', '5.']]);
    const client = new Client({ ...options, backend: webLLMBackend(engine) });

    const events = await collect(client.run('2 + 3?'));

    expect(types(events)).toEqual([
      'tool_use',
      'step_end',
      'tool_result',
      'text',
      'text',
      'step_end',
      'done',
    ]);
    expect(events[0]).toMatchObject({ type: 'tool_use', name: 'add', input: { a: 2, b: 3 } });
    expect((events[0] as { id: string }).id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(events[2]).toMatchObject({ type: 'tool_result', content: 5, isError: false });
    expect(events.at(-1)).toMatchObject({
      status: 'completed',
      usage: { promptTokens: 100, completionTokens: 14 },
    });
    const [withTools, answer] = engine.requests;
    // WebLLM's own Hermes prompt is the system message; ours leads the user message.
    expect(withTools?.messages.map((message) => message.role)).toEqual(['system', 'user']);
    expect(withTools?.messages[0]?.content).toContain('You are a function calling AI model');
    expect(withTools?.messages[1]?.content).toBe('Be brief.\n\n2 + 3?');
    expect(answer?.tools).toBeUndefined();
    expect(answer?.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: '2 + 3?' },
      { role: 'assistant', content: '[{"name":"add","arguments":{"a":2,"b":3}}]' },
      {
        role: 'tool',
        tool_call_id: events[0]?.type === 'tool_use' ? events[0].id : '',
        name: 'add',
        content: '5',
      },
    ]);
    expect(client.history.at(-1)).toMatchObject({ role: 'assistant', content: 'It is 5.' });
  });

  it('a model that calls no tool ([]) is asked again without tools and answers in text', async () => {
    const engine = fakeWebLLMEngine(HERMES, [['[', ']'], ['Hello!']]);
    const client = new Client({ ...options, backend: webLLMBackend(engine) });

    const events = await collect(client.run('Hi'));

    expect(types(events)).toEqual(['text', 'step_end', 'done']);
    expect(events[0]).toEqual({ type: 'text', text: 'Hello!' });
    expect(engine.requests.map((request) => request.tools === undefined)).toEqual([false, true]);
  });

  it('calls cut off before valid JSON are not run: the model is asked again without tools', async () => {
    const engine = fakeWebLLMEngine(HERMES, [['[{"name": "add", "argu'], ['I cannot add.']]);
    const client = new Client({ ...options, backend: webLLMBackend(engine) });

    const events = await collect(client.run('2 + 3?'));

    expect(types(events)).toEqual(['text', 'step_end', 'done']);
    expect(engine.requests).toHaveLength(2);
  });

  it('a Hermes model writing <tool_call> markup instead of the JSON list: the text is kept and the call recovered from the markup', async () => {
    // WebLLM streams every content chunk, then throws ToolCallOutputParseError from its final
    // chunk (JSON.parse of the whole output), with no finish chunk.
    const markup = [
      'Let me add',
      ' that.\n<tool_',
      'call>\n{"name": "add", "arguments": {"a": 2, "b": 3}}\n</tool_call>',
    ];
    const engine = fakeWebLLMEngine(HERMES, [markup, ['It is 5.']]);
    const client = new Client({ ...options, backend: webLLMBackend(engine) });

    const events = await collect(client.run('2 + 3?'));

    expect(types(events)).toEqual([
      'text',
      'text',
      'tool_use',
      'step_end',
      'tool_result',
      'text',
      'step_end',
      'done',
    ]);
    expect(events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('')).toBe(
      'Let me add that.\nIt is 5.',
    );
    expect(events[2]).toMatchObject({ type: 'tool_use', name: 'add', input: { a: 2, b: 3 } });
    expect(events[4]).toMatchObject({ type: 'tool_result', content: 5 });
    expect(engine.requests).toHaveLength(2);
    expect(engine.requests[1]?.messages[2]).toEqual({
      role: 'assistant',
      content: 'Let me add that.\n[{"name":"add","arguments":{"a":2,"b":3}}]',
    });
    expect(events.at(-1)).toMatchObject({ status: 'completed' });
  });

  it('a Hermes model answering in plain text with tools offered: the text is the answer, asked once', async () => {
    const engine = fakeWebLLMEngine(HERMES, [['Hello', ' there!']]);
    const client = new Client({ ...options, backend: webLLMBackend(engine) });

    const events = await collect(client.run('Hi'));

    expect(types(events)).toEqual(['text', 'text', 'step_end', 'done']);
    expect(engine.requests).toHaveLength(1);
  });

  it("toolChoice 'none' sends no tools, so the model can answer in text", async () => {
    const engine = fakeWebLLMEngine(HERMES, [['Four.']]);
    const client = new Client({ ...options, toolChoice: 'none', backend: webLLMBackend(engine) });

    const events = await collect(client.run('2 + 2?'));

    expect(events[0]).toEqual({ type: 'text', text: 'Four.' });
    expect(engine.requests[0]?.tools).toBeUndefined();
  });

  it('a model without function calling is a STREAM_ERROR with WebLLM’s reason', async () => {
    const engine = fakeWebLLMEngine(QWEN, [callAdd]);
    const client = new Client({ ...options, model: QWEN, backend: webLLMBackend(engine) });

    await expect(collect(client.run('2 + 3?'))).rejects.toMatchObject({
      code: 'STREAM_ERROR',
      message: expect.stringMatching(
        /^WebLLM: Qwen2.5-1.5B-Instruct-q4f16_1-MLC is not supported for ChatCompletionRequest.tools/,
      ) as unknown,
    });
  });

  it('without tools, text streams as it comes, system prompt and all', async () => {
    const engine = fakeWebLLMEngine(QWEN, [['Hel', 'lo']]);
    const client = new Client({
      model: QWEN,
      systemPrompt: 'Be brief.',
      backend: webLLMBackend(engine),
    });

    const events = await collect(client.run('Hi'));

    expect(events.filter((event) => event.type === 'text').map((event) => event.text)).toEqual([
      'Hel',
      'lo',
    ]);
    expect(engine.requests[0]?.messages[0]).toEqual({ role: 'system', content: 'Be brief.' });
  });

  it('lets go of the signal when the answer is complete: a later abort interrupts nothing', async () => {
    const engine = fakeWebLLMEngine(QWEN, [['Hi.']]);
    const controller = new AbortController();
    const client = new Client({ model: QWEN, backend: webLLMBackend(engine) });

    await collect(client.run('Hello', { signal: controller.signal }));
    controller.abort();

    expect(engine.interrupted).toBe(0);
  });

  it('an abort interrupts the generation and asks nothing more', async () => {
    const pieces = ['[{"name": "add", ', ...Array<string>(20).fill(' '), '"arguments": {}}]'];
    const engine = fakeWebLLMEngine(HERMES, [pieces]);
    const controller = new AbortController();
    const client = new Client({ ...options, backend: webLLMBackend(engine) });
    const running = collect(client.run('2 + 3?', { signal: controller.signal }));
    // Mid-generation: the request reached the engine, its output is still coming.
    for (let turn = 0; turn < 100 && engine.requests.length === 0; turn++) await Promise.resolve();
    controller.abort();

    const events = await running;

    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'cancelled' });
    expect(engine.interrupted).toBe(1);
    expect(engine.requests).toHaveLength(1);
  });

  it("'auto' knows the engine's context_window_size: an old turn is left out to fit it", async () => {
    const engine = fakeWebLLMEngine(HERMES, [['first answer'], ['second answer']], {
      contextWindowSize: 1024,
    });
    const client = new Client({ model: HERMES, backend: webLLMBackend(engine), maxTokens: 64 });
    await collect(client.run(`Old question: ${'padding words '.repeat(250)}`));
    const events = await collect(client.run(`New question: ${'more '.repeat(80)}`));
    expect(events.find((event) => event.type === 'context_trimmed')).toMatchObject({
      droppedMessages: 2,
      contextWindow: 1024,
    });
    expect(engine.requests[1]?.messages.map((message) => message.role)).toEqual(['user']);
    expect(client.history).toHaveLength(4); // what is stored never changes
  });

  it('an engine that does not say (a WebWorkerMLCEngine) is not fitted unless a number is given', async () => {
    const engine = fakeWebLLMEngine(HERMES, [['first answer'], ['second answer']]);
    const client = new Client({ model: HERMES, backend: webLLMBackend(engine), maxTokens: 64 });
    await collect(client.run(`Old question: ${'padding words '.repeat(250)}`));
    const events = await collect(client.run('New question'));
    expect(events.some((event) => event.type === 'context_trimmed')).toBe(false);
    expect(engine.requests[1]?.messages).toHaveLength(3);
  });
});
