/**
 * What `<agent-chat>` and `<agent-conversations>` show, replaceable: each key is the English
 * text itself (as gettext's msgids and `@lit/localize`'s sources are), so the English defaults
 * cost nothing to ship and a missing translation falls back to English. `{name}` marks a value
 * filled in: keep it in the translation.
 */
export interface ChatStrings {
  // The chat
  Message: string;
  'Message the agent…': string;
  Send: string;
  Resend: string;
  Stop: string;
  Regenerate: string;
  'Attach images': string;
  'Remove image {n}': string;
  'Image {n}': string;
  Conversation: string;
  Conversations: string;
  'New chat': string;
  Chat: string;
  Latest: string;
  'Show {n} earlier messages': string;
  'Start the conversation below.': string;
  'Set base-url and model (or a backend) to start.': string;
  'Loading the conversation…': string;
  'The request failed': string;
  Error: string;
  Retry: string;
  Dismiss: string;
  'Dismiss the error': string;
  Details: string;
  'Context window used by the last request': string;
  '{used} / {window} tokens': string;
  // Messages
  You: string;
  Assistant: string;
  'The assistant is answering': string;
  // The wait before the first token (the `waiting` event)
  'Loading {model}… {seconds} s': string;
  'Loading the model… {seconds} s': string;
  'Reading the conversation… {percent} %': string;
  'Reading the conversation… {seconds} s': string;
  'Waiting for another request to finish… {seconds} s': string;
  'Connecting… {seconds} s': string;
  'Summarising earlier messages… {seconds} s': string;
  'Waiting for the model… {seconds} s': string;
  'Stopped.': string;
  'Stopped: the tool-round limit was reached.': string;
  'The answer was interrupted: the page was closed or reloaded while it streamed.': string;
  'The model saw only the newest part of this chat: {n} older messages did not fit its context window.': string;
  'Summarised {n} earlier messages': string;
  'What the model is sent in their place': string;
  'Search conversations': string;
  'Search results': string;
  'Searching…': string;
  'No matches.': string;
  Title: string;
  '{n} stored messages could not be read: they are left out.': string;
  'Thinking…': string;
  Reasoning: string;
  'The last answer was interrupted. Retry asks the model again.': string;
  // The row under a message
  Edit: string;
  'Edit this message': string;
  Copy: string;
  'Copy the answer': string;
  Copied: string;
  'Copy failed': string;
  Versions: string;
  'Previous version': string;
  'Next version': string;
  '{active} / {count}': string;
  // Answers (markdown, JSON)
  'Copy {language} code': string;
  'Copy code': string;
  code: string;
  JSON: string;
  'Image not loaded': string;
  'Image not loaded: {alt}': string;
  'Remote images are blocked: they can leak the conversation to another site': string;
  // Tool cards
  Running: string;
  Done: string;
  Denied: string;
  Cancelled: string;
  'Waiting for approval': string;
  'Waiting for the page': string;
  'Waiting for Run': string;
  Stopped: string;
  Interrupted: string;
  'Skipped: a new message was sent': string;
  'Tool call {name}: {status}': string;
  'Receiving arguments…': string;
  Arguments: string;
  'Arguments (JSON)': string;
  Result: string;
  '{n} characters': string;
  'Show more ({n} more characters)': string;
  'Show less': string;
  'Approve {name}?': string;
  Approve: string;
  'Approve with these arguments': string;
  'Edit arguments': string;
  'Cancel edit': string;
  Deny: string;
  'Run {name}?': string;
  Run: string;
  Skip: string;
  'Tools do not run automatically here: run this call?': string;
  'The page is running this tool; its result will appear here.': string;
  'Nothing on this page answers this tool (it has no execute and no agent-tool-call listener took it).': string;
  // The model picker (<agent-model-picker>, opt-in; its panel loads when it first opens)
  '{model}: choose a model': string;
  'Models on this server': string;
  Models: string;
  Close: string;
  'Loading models…': string;
  'No models on this server.': string;
  loaded: string;
  tools: string;
  vision: string;
  thinking: string;
  'Get a model…': string;
  'Model name': string;
  Download: string;
  Cancel: string;
  'Downloading {name}': string;
  'The download stopped: {message}': string;
  'Starting…': string;
  '{percent} % · {done} of {total}': string;
  '{speed}/s': string;
  'Check this server': string;
  'Checking…': string;
  'Server check': string;
  Pass: string;
  Warning: string;
  Failed: string;
  'Fix: {fix}': string;
  '{n} short generations, at most {tokens} output tokens.': string;
  '{model} is not on this server.': string;
  'Pull {model}': string;
  // The conversations list
  New: string;
  Import: string;
  'No saved conversations yet.': string;
  'New title for {name}': string;
  '{n} messages': string;
  '1 message': string;
  'Delete {name}?': string;
  Delete: string;
  Keep: string;
  Rename: string;
  'Rename {name}': string;
  Export: string;
  'Export {name}': string;
  'Delete {name}': string;
}

/** A text of {@link ChatStrings} in the element's language, its `{name}` marks filled in. */
export type Translate = (
  key: keyof ChatStrings,
  values?: Record<string, string | number>,
) => string;

/**
 * The {@link Translate} of a `strings` override (English where it has no entry) and a locale
 * for numbers (`undefined`: the browser's).
 */
export function translator(strings: Partial<ChatStrings> | undefined, locale?: string): Translate {
  // One formatter for every number: `toLocaleString(locale)` built one per call (a card's
  // "{n} characters", the waiting line), ~10 µs each, which 200 cards re-rendered made 30+ ms.
  let numbers: Intl.NumberFormat | undefined;
  return (key, values) =>
    (strings?.[key] ?? key).replace(/\{(\w+)\}/g, (mark, name: string) => {
      const value = values?.[name];
      return value === undefined
        ? mark
        : typeof value === 'number'
          ? (numbers ??= new Intl.NumberFormat(locale)).format(value)
          : value;
    });
}

/**
 * Formats a number once, in a task of its own after the chat's first paint: the page's first
 * number formatter loads the locale's data, and the first render of a run (its "… 0 s" line)
 * paid for it — 30 to 100 ms in the profile of the 200-call bench on a busy machine.
 *
 * @example
 * setTimeout(() => warmNumbers(pageLocale(element)), 0);
 */
export function warmNumbers(locale?: string): void {
  new Intl.NumberFormat(locale).format(0);
}

/** The language of the page around `element` (`lang` of it or an ancestor), for dates and numbers. */
export function pageLocale(element: Element): string | undefined {
  return element.closest('[lang]')?.getAttribute('lang') || undefined;
}
