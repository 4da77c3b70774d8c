import {
  contentText,
  scriptedBackend,
  type ChatBackend,
  type ChatRequest,
  type Message,
  type ScriptedTurn,
} from '../src/index.js';

/** Milliseconds between streamed words: slow enough to see the streaming. */
const DELAY_MS = 18;

/**
 * The built-in demo model: NOT a language model. The scripted backend answers by simple
 * rules, so the whole flow (streaming, tool calls, approvals, results) runs offline:
 * arithmetic → `calculator`, code or "run"/"compute" → `run_javascript`, "remember …" →
 * `notes`, "time"/"date" → `current_time`, otherwise a short help text. Its context window
 * is 8,192 tokens.
 */
export function demoModel(): ChatBackend {
  const backend = scriptedBackend([], {
    respond: (request) => ({ delayMs: DELAY_MS, ...respond(request) }),
  });
  // The window of a small local model, so the conversation is fitted to it and <agent-chat>'s
  // context meter shows how full it is, as with a real server.
  return { chat: backend.chat, contextWindow: () => 8192 };
}

function respond(request: ChatRequest): ScriptedTurn {
  const last = request.messages.at(-1);
  const available = new Set((request.tools ?? []).map((definition) => definition.function.name));
  if (last?.role === 'tool') return summarize(request.messages);
  if (last?.role !== 'user') return { text: 'Hello! Ask me something.' };
  const prompt = contentText(last.content);
  const call = (name: string, input: Record<string, unknown>, why: string): ScriptedTurn =>
    available.has(name)
      ? { reasoning: `${why} I will call \`${name}\`.`, toolCalls: [{ name, input }] }
      : {
          text: `That needs the \`${name}\` tool, which is turned off in the settings. Turn it on and ask again.`,
        };

  const code = /```(?:js|javascript)?\s*\n?([\s\S]+?)```|`([^`]+)`/.exec(prompt);
  const codeText = code?.[1] ?? code?.[2];
  if (codeText !== undefined && /\b(run|compute|execute|eval)/i.test(prompt)) {
    return call('run_javascript', { code: codeText.trim() }, 'The message has code to run.');
  }
  const expression = arithmetic(prompt);
  if (expression !== undefined)
    return call('calculator', { expression }, `"${expression}" is arithmetic.`);
  if (/\b(run|compute|execute)\b/i.test(prompt)) {
    const program =
      'const fib = [0, 1];\nwhile (fib.length < 15) fib.push(fib.at(-1) + fib.at(-2));\nconsole.log("first 15 Fibonacci numbers");\nfib';
    return call(
      'run_javascript',
      { code: program },
      'The user wants something computed; with no code given, I will compute Fibonacci numbers.',
    );
  }
  const remember = /\bremember(?:\s+that)?\s+(.+)/i.exec(prompt);
  if (remember?.[1])
    return call(
      'notes',
      { action: 'add', text: remember[1].replace(/[.!]+$/, '') },
      'The user wants me to remember something.',
    );
  if (/\b(notes|what do you remember|recall)\b/i.test(prompt))
    return call('notes', { action: 'list' }, 'The user asks about stored notes.');
  if (/\b(time|date|day is it|today)\b/i.test(prompt))
    return call('current_time', {}, 'The user asks for the time.');
  return {
    reasoning: 'No rule matched this message, so I will explain what this demo model can do.',
    text: [
      'I am the **built-in demo model**: a script with a few rules, *not* a language model.',
      'It exists so you can see the whole agent flow offline. Try:',
      '',
      '- arithmetic, e.g. `What is 12 * (3 + 4)?` → the **calculator** tool',
      '- `run` some code, e.g. ``Run `[1, 2, 3].map((x) => x * x)` `` → the **JavaScript sandbox** (a Web Worker, asks for approval)',
      '- `Remember that the demo works offline` → the **notes** tool (IndexedDB)',
      '- `What time is it?` → the **current time** tool',
      '',
      'For real answers, pick a local server (Ollama, LM Studio, llama.cpp, vLLM) in the settings.',
    ].join('\n'),
  };
}

/** The longest run of arithmetic characters with at least one operator between numbers. */
function arithmetic(prompt: string): string | undefined {
  const candidates = prompt.match(/[\d.()\s+\-*/^%×÷]+|sqrt\s*\([^)]*\)/gi) ?? [];
  const best = candidates
    .map((candidate) => candidate.trim())
    .filter((candidate) => /\d\s*[-+*/^%×÷]\s*[\d(]/.test(candidate) || /^sqrt/i.test(candidate))
    .sort((a, b) => b.length - a.length)[0];
  return best;
}

/** The answer after tool results: reads the results of the last round back to the user. */
function summarize(messages: readonly Message[]): ScriptedTurn {
  const results: Message[] = [];
  for (
    let index = messages.length - 1;
    index >= 0 && messages[index]?.role === 'tool';
    index -= 1
  ) {
    const message = messages[index];
    if (message) results.unshift(message);
  }
  const lines = results.map((message) =>
    message.role === 'tool' ? describe(message.name ?? 'tool', contentText(message.content)) : '',
  );
  return { text: lines.join('\n\n') };
}

function describe(name: string, content: string): string {
  if (/^Error:.*was denied/.test(content))
    return `You denied the \`${name}\` call, so I did not run it.`;
  if (content.startsWith('Error'))
    return `The \`${name}\` tool failed:\n\n> ${content.replace(/^Error:\s*/, '')}`;
  const value = parse(content);
  switch (name) {
    case 'calculator':
      return `**${String(field(value, 'expression'))} = ${String(field(value, 'value'))}**`;
    case 'run_javascript': {
      const logs = field(value, 'logs');
      const error = field(value, 'error');
      const output =
        Array.isArray(logs) && logs.length > 0
          ? `\n\nConsole output:\n\n\`\`\`\n${logs.map(logLine).join('\n')}\n\`\`\``
          : '';
      if (error !== undefined)
        return `The code threw in the sandbox: \`${text(field(error, 'name'))}: ${text(field(error, 'message'))}\`${output}`;
      return `The code ran in the sandbox worker and returned:\n\n\`\`\`json\n${JSON.stringify(field(value, 'result'), null, 2)}\n\`\`\`${output}`;
    }
    case 'notes': {
      const notes = field(value, 'notes');
      if (Array.isArray(notes))
        return notes.length === 0
          ? 'There are no notes yet.'
          : `Your notes:\n\n${notes.map((note) => `- ${String(note)}`).join('\n')}`;
      if (field(value, 'added') !== undefined)
        return `Noted: “${String(field(value, 'added'))}”. I have ${String(field(value, 'count'))} note(s) now; ask “what do you remember?”.`;
      return 'Done.';
    }
    case 'current_time':
      return `It is **${String(field(value, 'local'))}**.`;
    default:
      return `\`${name}\` returned \`${content}\`.`;
  }
}

function logLine(entry: unknown): string {
  if (typeof entry === 'string') return entry;
  const args = field(entry, 'args') ?? field(entry, 'message') ?? entry;
  return Array.isArray(args)
    ? args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ')
    : JSON.stringify(args);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

function parse(content: string): unknown {
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
