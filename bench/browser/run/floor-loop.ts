import { add, ADD_TOOL, scenarioName, type RunOutcome } from './run-scenarios.js';
import type { RunLoop } from './run-loops.js';

interface FloorCall {
  id: string;
  name: string;
  arguments: string;
}

/** Wire data from our own fake server: only the fields the floor reads. */
interface FloorChunk {
  choices?: {
    delta?: {
      content?: string | null;
      tool_calls?: {
        index: number;
        id?: string;
        function?: { name?: string; arguments?: string };
      }[];
    };
  }[];
}

/**
 * The floor: what any client must do at least — fetch, decode, split lines, `JSON.parse` each
 * `data:` line, add up text and call arguments — with tools run by hand and the conversation
 * kept in an array. No checks beyond what the fake server needs.
 */
export const floorLoop: RunLoop = async ({ baseURL, scenario, observe }) => {
  const outcome: RunOutcome = { text: '', toolResults: [], modelCalls: 0 };
  const messages: unknown[] = [{ role: 'user', content: 'Go' }];
  const tools = [{ type: 'function', function: ADD_TOOL }];
  for (;;) {
    const response = await fetch(`${baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-needed' },
      body: JSON.stringify({ model: scenarioName(scenario), messages, tools, stream: true }),
    });
    outcome.modelCalls++;
    if (!response.ok || response.body === null) throw new Error(`floor: HTTP ${response.status}`);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const calls: FloorCall[] = [];
    let text = '';
    let buffer = '';
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true });
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        if (!line.startsWith('data: ')) continue;
        const data = line.slice(6);
        if (data === '[DONE]') continue;
        const delta = (JSON.parse(data) as FloorChunk).choices?.[0]?.delta; // our fake server's chunks
        if (typeof delta?.content === 'string' && delta.content !== '') {
          text += delta.content;
          outcome.text = text;
          observe?.(text.length);
        }
        for (const part of delta?.tool_calls ?? []) {
          const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
          if (part.id !== undefined) call.id = part.id;
          if (part.function?.name !== undefined) call.name = part.function.name;
          call.arguments += part.function?.arguments ?? '';
        }
      }
    }
    if (calls.length === 0) return outcome;
    messages.push({
      role: 'assistant',
      content: text === '' ? null : text,
      tool_calls: calls.map((call) => ({
        id: call.id,
        type: 'function',
        function: { name: call.name, arguments: call.arguments },
      })),
    });
    for (const call of calls) {
      const result = add(JSON.parse(call.arguments));
      outcome.toolResults.push(result);
      messages.push({ role: 'tool', tool_call_id: call.id, content: String(result) });
    }
  }
};
