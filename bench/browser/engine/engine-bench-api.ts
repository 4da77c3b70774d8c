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

/** What bench/browser/engine/engine-page.ts exposes as `window.engineBench`. */
export interface EngineBenchApi {
  /** Loads the tiny model twice: into wllama directly, and into a wllamaBackend. Returns their load times. */
  load(): Promise<{ rawLoadMs: number; backendLoadMs: number }>;
  /** One generation through wllama's own `createChatCompletion` stream. */
  raw(maxTokens: number): Promise<WatchedGeneration>;
  /** One generation through `Client.run` on `wllamaBackend`, with the longest main-thread task seen meanwhile. */
  client(maxTokens: number): Promise<WatchedGeneration>;
  /** Prompt tokens of the same prompt with and without one tool offered (the constrained-tools instructions). */
  toolPromptTokens(): Promise<{ without: number; withTool: number; instructionsChars: number }>;
}

declare global {
  interface Window {
    engineBench?: EngineBenchApi;
  }
}
