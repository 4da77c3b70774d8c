/** Provided by demo/vite.config.ts: loads `@mlc-ai/web-llm` if installed, else rejects with how to install it. */
declare module 'virtual:web-llm' {
  export function load(): Promise<unknown>;
}
