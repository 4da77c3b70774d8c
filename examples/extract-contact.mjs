#!/usr/bin/env node
/**
 * Extracts a validated contact from free text with defineAgent + executeAgent: one helper
 * tool (a company directory), an output tool with reflection (the model reviews and refines
 * its output, then calls `submit`), and a validator whose error sends the model round again.
 *
 *   npm run build
 *   node examples/extract-contact.mjs                      # scripted model, no server needed
 *   node examples/extract-contact.mjs --base-url http://localhost:11434/v1 --model qwen3
 *   node examples/extract-contact.mjs --text "Reach Ada Lovelace at ada@engines.example, +44 20 7946 0018"
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { defineAgent, executeAgent, scriptedBackend, tool } from '../dist/index.js';

const { values: args } = parseArgs({
  options: {
    'base-url': { type: 'string' },
    model: { type: 'string', default: 'qwen3' },
    text: { type: 'string' },
  },
});

const message =
  args.text ??
  'Hi team, please loop in Grace Hopper from the compiler group. Her mail is grace.hopper@navy.example ' +
    "and she said to call (202) 555-0147 if anything's urgent.";

const directory = { 'navy.example': 'US Navy', 'engines.example': 'Analytical Engines Ltd' };

const lookupCompany = tool({
  name: 'lookup_company',
  description:
    'Finds the company that owns an email domain. Returns "unknown" for domains not in the directory.',
  input: z.object({
    domain: z.string().describe('The part of the email address after "@", e.g. "navy.example"'),
  }),
  execute: ({ domain }) => directory[domain.toLowerCase()] ?? 'unknown',
});

const contactSchema = z.object({
  name: z.string().min(1).describe('Full name'),
  email: z.email(),
  phone: z.string().describe('Phone number in E.164 format, e.g. +12025550147'),
  company: z.string().optional().describe('The company, as lookup_company returned it'),
});

/** Feedback the model reads after each save_contact call. */
function review(contact) {
  const problems = [];
  if (contact.company === undefined)
    problems.push('company is missing: look the email domain up with lookup_company');
  if (contact.name === contact.name.toLowerCase()) problems.push('write the name with capitals');
  return problems.length > 0
    ? `Saved, with problems: ${problems.join('; ')}. Fix them and call save_contact again.`
    : 'Saved. It looks complete: call submit if you are satisfied.';
}

/** A validator: a returned message rejects the output and starts a new attempt. */
const e164 = ({ phone }) =>
  /^\+[1-9]\d{6,14}$/.test(phone)
    ? undefined
    : `phone must be in E.164 format like +12025550147 (got "${phone}")`;

/** What a good local model does with the default message, scripted so the example runs offline. */
function scriptedModel() {
  const grace = {
    name: 'Grace Hopper',
    email: 'grace.hopper@navy.example',
    phone: '(202) 555-0147',
  };
  const call = (name, input = {}) => ({ toolCalls: [{ name, input }] });
  return scriptedBackend([
    call('lookup_company', { domain: 'navy.example' }),
    call('save_contact', grace),
    call('save_contact', { ...grace, company: 'US Navy' }),
    call('submit'),
    // Attempt 2, after the validator rejected the phone number:
    call('save_contact', { ...grace, company: 'US Navy', phone: '+12025550147' }),
    call('submit'),
  ]);
}

const baseURL = args['base-url'];
const extractContact = defineAgent({
  name: 'extract-contact',
  model: args.model,
  ...(baseURL ? { baseURL } : { backend: scriptedModel() }),
  temperature: 0,
  systemPrompt:
    'You extract one contact from a message. First call lookup_company with the email domain. ' +
    'Then call save_contact with the contact; you will get feedback. Fix any problem and call save_contact again. ' +
    'When the feedback says it is complete, call submit. Always answer with tool calls.',
  buildPrompt: (text) => `Extract the contact from this message:\n\n${text}`,
  tools: {
    helpers: [lookupCompany],
    output: {
      name: 'save_contact',
      description: 'Saves the extracted contact for review',
      schema: contactSchema,
      reflectionHandler: review,
    },
  },
  validation: { validators: [e164], maxAttempts: 3, maxIterationsPerAttempt: 8 },
});

const controller = new AbortController();
process.once('SIGINT', () => controller.abort());

console.log(
  `Model: ${baseURL ? `${args.model} at ${baseURL}` : 'scripted (pass --base-url for a real one)'}\n`,
);
const result = await executeAgent(extractContact, message, {
  signal: controller.signal,
  callbacks: {
    onAttemptStart: ({ attempt }) => console.log(`-- attempt ${attempt}`),
    onToolCall: ({ iteration }, name, input) =>
      console.log(`   [${iteration}] ${name}(${JSON.stringify(input)})`),
    onToolResult: (_state, _name, text) => console.log(`       -> ${text}`),
    onValidationFailure: (_state, reason) => console.log(`   rejected: ${reason}`),
  },
});

const { tokens, attempts, iterations, latencyMs } = result.metadata;
const usage = `${tokens.totalTokens} tokens${tokens.estimated ? ' (estimated)' : ''}`;
console.log(
  `\n${attempts} attempt(s), ${iterations} iteration(s), ${usage}, ${Math.round(latencyMs)} ms`,
);
if (result.ok) {
  console.log('Contact:', JSON.stringify(result.output, null, 2));
} else {
  console.error(`Failed: ${result.error.code}: ${result.error.message}`);
  process.exitCode = 1;
}
