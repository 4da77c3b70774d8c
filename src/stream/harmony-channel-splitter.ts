/** Where {@link HarmonyChannelSplitter} sends what it splits. */
export interface HarmonySink {
  /** The `final` channel, and content outside any harmony message. */
  text(piece: string): void;
  /** The `analysis` channel, and `commentary` addressed to no tool. Any other channel is text. */
  reasoning(piece: string): void;
  /** A message to `functions.NAME` (its body is the arguments JSON), ended by `<|call|>`. */
  toolCall(call: { name: string; arguments: string }): void;
}

const TOKENS = [
  '<|start|>',
  '<|end|>',
  '<|message|>',
  '<|channel|>',
  '<|constrain|>',
  '<|return|>',
  '<|call|>',
] as const;
type Token = (typeof TOKENS)[number];
const LESS_THAN = 0x3c; // '<'
const RECIPIENT = /\bto=functions\.([^\s<]+)/;

/**
 * Splits OpenAI's harmony format (gpt-oss) when a server leaves it in `content` instead of
 * parsing it — llama.cpp builds without gpt-oss parsing, some MLX and other runtimes:
 * `<|channel|>analysis<|message|>…<|end|><|start|>assistant<|channel|>final<|message|>…`.
 * The analysis channel becomes reasoning, the final channel text, and a message
 * `to=functions.NAME … <|message|>{json}<|call|>` a tool call. Kept as content, the markup
 * would show, and llama.cpp's gpt-oss template refuses it when the conversation is sent
 * back ("You have passed a message containing <|channel|> tags in the content field").
 *
 * Content without `<|` passes through whole; a possible token cut across deltas is held
 * until the next delta decides it.
 *
 * @example
 * const splitter = new HarmonyChannelSplitter(sink);
 * splitter.push('<|channel|>analysis<|message|>Easy.<|end|><|start|>assistant<|chan');
 * splitter.push('nel|>final<|message|>4'); // reasoning 'Easy.', text '4'
 * splitter.flush();
 */
export class HarmonyChannelSplitter {
  readonly #sink: HarmonySink;
  #mode: 'text' | 'header' | 'body' = 'text';
  /** The header of the message being opened: role, channel, recipient, constraint. */
  #header = '';
  #channel = '';
  #recipient: string | undefined;
  /** The arguments of a tool-call message so far. */
  #call = '';
  /** The possible start of a token at the end of the last delta. */
  #held = '';
  /** After a message ended: leading whitespace of the text outside it is layout. */
  #between = false;

  constructor(sink: HarmonySink) {
    this.#sink = sink;
  }

  /** True when a delta without `<` would pass through unchanged (nothing held, outside any message). */
  get passesPlainText(): boolean {
    return this.#mode === 'text' && this.#held === '' && !this.#between;
  }

  /** Splits one content delta. */
  push(piece: string): void {
    let input = piece;
    if (this.#held !== '') {
      input = this.#held + piece;
      this.#held = '';
    }
    let start = 0;
    let from = 0;
    for (;;) {
      const at = input.indexOf('<|', from);
      if (at === -1) break;
      const token = TOKENS.find((candidate) => input.startsWith(candidate, at));
      if (token === undefined) {
        const rest = input.slice(at);
        if (TOKENS.some((candidate) => candidate.startsWith(rest))) {
          this.#route(input.slice(start, at));
          this.#held = rest;
          return;
        }
        from = at + 2;
        continue;
      }
      this.#route(input.slice(start, at));
      this.#onToken(token);
      start = from = at + token.length;
    }
    // A delta ending in `<` may end in the first character of a token.
    const end = input.charCodeAt(input.length - 1) === LESS_THAN ? input.length - 1 : input.length;
    this.#route(start === 0 && end === input.length ? input : input.slice(start, end));
    this.#held = input.slice(end);
  }

  /** The stream ended: a held-back partial token was content; an unended call is reported. */
  flush(): void {
    const held = this.#held;
    this.#held = '';
    this.#route(held);
    if (this.#mode === 'body' && this.#recipient !== undefined) this.#endCall();
  }

  #onToken(token: Token): void {
    switch (token) {
      case '<|start|>':
        this.#mode = 'header';
        this.#header = '';
        return;
      case '<|channel|>':
      case '<|constrain|>':
        if (this.#mode !== 'header') this.#header = '';
        this.#mode = 'header';
        this.#header += ` ${token} `;
        return;
      case '<|message|>': {
        const channel = /<\|channel\|>\s*([^\s<]+)/.exec(this.#header)?.[1] ?? '';
        this.#channel = channel;
        this.#recipient = RECIPIENT.exec(this.#header)?.[1];
        this.#call = '';
        this.#mode = 'body';
        return;
      }
      case '<|call|>':
      case '<|end|>':
      case '<|return|>':
        if (this.#mode === 'body' && this.#recipient !== undefined) this.#endCall();
        this.#mode = 'text';
        this.#between = true;
        this.#recipient = undefined;
        return;
    }
  }

  #endCall(): void {
    const name = this.#recipient;
    if (name !== undefined) this.#sink.toolCall({ name, arguments: this.#call.trim() });
    this.#recipient = undefined;
    this.#call = '';
  }

  #route(segment: string): void {
    if (segment === '') return;
    if (this.#mode === 'header') this.#header += segment;
    else if (this.#mode === 'text') {
      // After a harmony message, leading line breaks are layout (however the deltas fall).
      const text = this.#between ? segment.trimStart() : segment;
      if (text === '') return;
      this.#between = false;
      this.#sink.text(text);
    } else if (this.#recipient !== undefined) this.#call += segment;
    else if (this.#channel === 'analysis' || this.#channel === 'commentary')
      this.#sink.reasoning(segment);
    else this.#sink.text(segment);
  }
}
