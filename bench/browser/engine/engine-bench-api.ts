/** One measured generation: time to the first token, whole time, tokens generated. */
export interface Generation {
  firstTokenMs: number;
  totalMs: number;
  tokens: number;
}

/** A generation with the long main-thread tasks (≥ 50 ms) seen while it ran. */
export interface WatchedGeneration extends Generation {
  longestTaskMs: number;
  longTasks: number;
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
  /** Loads the tiny model twice: into wllama directly, and into a wllamaBackend. Returns their load times. */
  load(): Promise<{ rawLoadMs: number; backendLoadMs: number }>;
  /** One generation through wllama's own `createChatCompletion` stream. */
  raw(maxTokens: number): Promise<WatchedGeneration>;
  /** One generation through `Client.run` on `wllamaBackend`, with the longest main-thread task seen meanwhile. */
  client(maxTokens: number): Promise<WatchedGeneration>;
  /** Prompt tokens of the same prompt with each count of tools offered (the constrained-tools instructions). */
  toolPromptTokens(counts: readonly number[]): Promise<ToolCost[]>;
}

declare global {
  interface Window {
    engineBench?: EngineBenchApi;
  }
}
