import { describe, expect, it, vi } from 'vitest';
import { defineAgent } from '../../src/loop/define-agent.js';
import { executeAgent } from '../../src/loop/execute-agent.js';
import { scriptedBackend } from '../../src/backend/scripted-backend.js';
import { assertHistoryConsistent } from '../support/history-invariant.js';
import {
  ada,
  contactAgent,
  contactSchema,
  lastMessageOf,
  save,
  shape,
  submit,
  type Contact,
} from './execute-agent-fixtures.js';

const critique = (contact: Contact) =>
  contact.company === undefined
    ? `Saved ${contact.name}; company is missing.`
    : `Saved ${contact.name} at ${contact.company}; submit when done.`;

describe('executeAgent with reflection', () => {
  it('returns the handler text on each output call and finalises the last output on submit', async () => {
    const handler = vi.fn(critique);
    const { agent, backend } = contactAgent(
      [
        save({ name: 'Ada', email: 'ada@example.org' }),
        save(ada),
        save({ ...ada, company: 'Analytical Engines Ltd' }),
        submit,
      ],
      { reflectionHandler: handler },
    );

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: true,
      output: { ...ada, company: 'Analytical Engines Ltd' },
      metadata: { attempts: 1, iterations: 4 },
    });
    expect(handler.mock.calls.map(([contact]) => contact.name)).toEqual([
      'Ada',
      'Ada Lovelace',
      'Ada Lovelace',
    ]);
    expect(lastMessageOf(backend.requests, 1)?.content).toBe('Saved Ada; company is missing.');
    expect(lastMessageOf(backend.requests, 2)?.content).toBe(
      'Saved Ada Lovelace; company is missing.',
    );
    expect(lastMessageOf(backend.requests, 3)?.content).toBe(
      'Saved Ada Lovelace at Analytical Engines Ltd; submit when done.',
    );
    expect(backend.requests[0]?.tools?.at(-1)).toEqual({
      type: 'function',
      function: {
        name: 'submit',
        description:
          'Submit your final output for validation. Call this when you are satisfied with your output.',
        parameters: expect.objectContaining({ type: 'object', properties: {} }) as unknown,
      },
    });
    expect(shape(result.metadata.history).at(-2)).toBe('assistant:submit');
    assertHistoryConsistent(result.metadata.history);
  });

  it('answers submit before any output with SUBMIT_BEFORE_OUTPUT, and the model recovers', async () => {
    const { agent, backend } = contactAgent([submit, save(ada), submit], {
      reflectionHandler: critique,
    });

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({ ok: true, output: ada, metadata: { iterations: 3 } });
    expect(lastMessageOf(backend.requests, 1)).toMatchObject({
      role: 'tool',
      name: 'submit',
      content:
        'Error: There is no output to submit yet: call "save_contact" with your output first, then "submit".',
    });
    assertHistoryConsistent(result.metadata.history);
  });

  it('fails with SUBMIT_BEFORE_OUTPUT when the attempt ends after a premature submit', async () => {
    const { agent } = contactAgent([submit, submit], {
      reflectionHandler: critique,
      maxIterationsPerAttempt: 2,
    });

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: false,
      error: { code: 'SUBMIT_BEFORE_OUTPUT', context: { attempt: 1, iteration: 2 } },
      metadata: { attempts: 1, iterations: 2 },
    });
    assertHistoryConsistent(result.metadata.history);
  });

  it('accepts an output and submit in one response', async () => {
    const { agent } = contactAgent(
      [
        {
          toolCalls: [
            { name: 'save_contact', input: ada },
            { name: 'submit', input: {} },
          ],
        },
      ],
      { reflectionHandler: critique },
    );

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({ ok: true, output: ada, metadata: { iterations: 1 } });
  });

  it('returns a throwing handler and a schema mismatch to the model as error results', async () => {
    const handler = vi.fn((contact: Contact) => {
      if (contact.company === undefined) throw new Error('directory offline');
      return 'ok';
    });
    const { agent, backend } = contactAgent(
      [
        save({ name: 'Ada', email: 'not-an-email' }),
        save(ada),
        save({ ...ada, company: 'AEL' }),
        submit,
      ],
      { reflectionHandler: handler },
    );

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({ ok: true, output: { ...ada, company: 'AEL' } });
    expect(handler).toHaveBeenCalledTimes(2); // never with the schema-invalid output
    expect(lastMessageOf(backend.requests, 1)?.content).toMatch(
      /^Error: The output does not match the schema: email: Invalid email.*Call "save_contact" again/,
    );
    expect(lastMessageOf(backend.requests, 2)?.content).toBe(
      'Error: Tool "save_contact" failed: directory offline',
    );
    assertHistoryConsistent(result.metadata.history);
  });

  it('asks for a new output after a failed validation (the old one is not resubmitted)', async () => {
    const { agent, backend } = contactAgent(
      [save(ada), submit, submit, save({ ...ada, company: 'AEL' }), submit],
      {
        reflectionHandler: critique,
        validators: [
          (contact) => (contact.company === undefined ? 'company is required' : undefined),
        ],
      },
    );

    const result = await executeAgent(agent, 'text');

    expect(result).toMatchObject({
      ok: true,
      output: { company: 'AEL' },
      metadata: { attempts: 2, iterations: 5 },
    });
    expect(lastMessageOf(backend.requests, 2)).toEqual({
      role: 'user',
      content:
        'Your output was rejected: company is required\nFix this and call "save_contact" with a corrected output, then "submit".',
    });
    expect(lastMessageOf(backend.requests, 3)?.content).toMatch(
      /^Error: There is no output to submit yet/,
    );
    assertHistoryConsistent(result.metadata.history);
  });

  it('cannot configure a submit tool without a reflection handler', () => {
    const backend = scriptedBackend([]);
    const agent = defineAgent({
      model: 'm',
      backend,
      systemPrompt: 's',
      buildPrompt: (text: string) => text,
      tools: {
        // @ts-expect-error -- `submit` exists only beside a reflectionHandler
        output: {
          name: 'save_contact',
          description: 'd',
          schema: contactSchema,
          submit: { description: 'Done?' },
        },
      },
    });
    expect(agent.output.reflection).toBeUndefined();

    const reflective = defineAgent({
      model: 'm',
      backend,
      systemPrompt: 's',
      buildPrompt: (text: string) => text,
      tools: {
        output: {
          name: 'save_contact',
          description: 'd',
          schema: contactSchema,
          // The handler's parameter is the schema's output type.
          reflectionHandler: (contact) => contact.email.toLowerCase(),
          submit: { description: 'Done?' },
        },
      },
    });
    expect(reflective.output.reflection?.submitDescription).toBe('Done?');
  });
});
