/** Token usage. `estimated` is set when the server reported none and we counted ~4 chars/token. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  estimated?: boolean;
}

/** A usage of zero, the start of every sum. */
export function emptyUsage(): Usage {
  return { promptTokens: 0, completionTokens: 0, totalTokens: 0 };
}

/** The sum of two usages; estimated when either is. */
export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
  if (a.estimated === true || b.estimated === true) sum.estimated = true;
  return sum;
}

/** A rough token count for text (about four characters per token). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
