/** One measured generation: time to the first token, whole time, tokens generated. */
export interface Generation {
  /** From the start of the call to the first non-empty piece of answer text. */
  firstTokenMs: number;
  /** From the start of the call to the end of the stream (time to first token included). */
  totalMs: number;
  /** Completion tokens as the engine counts them (llama.cpp's `usage.completion_tokens`). */
  tokens: number;
  /** Non-empty pieces of answer text seen by the caller (a cross-check of `tokens`). */
  pieces: number;
  /** The answer text, to check that both paths generated the same tokens. */
  text: string;
}

/** What the main thread did while one generation through `Client.run` ran. */
export interface MainThreadWatch extends Generation {
  /** Longest gap between two turns of a `setTimeout(0)` probe: an upper bound of the longest task (plus the ≈ 4 ms timer clamp). */
  longestGapMs: number;
  /** Longest task the `longtask` observer reported (it reports only tasks ≥ 50 ms; 0 = none). */
  longestTaskMs: number;
  longTasks: number;
}

/** The probes, checked on a task of known length before they measure anything. */
export interface ProbeCheck {
  /** Length of the deliberately blocking task. */
  blockedMs: number;
  /** What the gap probe saw of it. */
  gapMs: number;
  /** What the longtask observer saw of it (0 if it reported nothing: then it is not watching). */
  longTaskMs: number;
}

/** What offering `tools` tools costs the prompt. */
export interface ToolCost {
  tools: number;
  /** Prompt tokens through wllamaBackend (the tiny model's ASCII byte-level vocabulary). */
  promptTokens: number;
  /** Characters of the instructions constrainTools adds to the system prompt. */
  instructionsChars: number;
  /** Characters of text chromeAIBackend hands a Prompt API session (initial prompts + prompt). */
  chromeInputChars: number;
}

/** What bench/browser/engine/engine-page.ts exposes as `window.engineBench`. */
export interface EngineBenchApi {
  /**
   * Loads the tiny model into one wllamaBackend and keeps a handle on the engine it made, so
   * both paths below run on the same engine (same worker, same wasm instance, same warm state).
   */
  load(): Promise<{ loadMs: number }>;
  /**
   * One generation through wllama's own `createChatCompletion` async iterator, with exactly the
   * parameters the backend sent the engine on its last request (minus its `onData` and signal).
   */
  raw(): Promise<Generation>;
  /** One generation through `Client.run` on the wllamaBackend. */
  client(maxTokens: number): Promise<Generation>;
  /** The request parameters the backend last sent the engine, as JSON (to show both paths ask the same). */
  lastParams(): string;
  /** Blocks the main thread for `ms` while both probes watch, to show that they see a long task. */
  checkProbes(ms: number): Promise<ProbeCheck>;
  /** One generation through `Client.run` with the main-thread probes running. */
  watched(maxTokens: number): Promise<MainThreadWatch>;
  /** Prompt tokens of the same prompt with each count of tools offered (the constrained-tools instructions). */
  toolPromptTokens(counts: readonly number[]): Promise<ToolCost[]>;
}

declare global {
  interface Window {
    engineBench?: EngineBenchApi;
  }
}
