/** Defaults of `AgentOptions`: what applies when an option is left out. */
export const DEFAULTS = {
  apiKey: 'not-needed',
  autoExecuteTools: false,
  maxToolIterations: 5,
  maxRetries: 2,
} as const;
