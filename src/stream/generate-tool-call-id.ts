const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const ID_LENGTH = 9;

/**
 * A tool-call id for servers that send none (WebLLM, text parsed from `<tool_call>`
 * markup): 9 random alphanumeric characters, because some Mistral chat templates reject
 * any other id shape when the history is sent back.
 *
 * @example
 * generateToolCallId(); // 'aZ3kP09xQ'
 */
export function generateToolCallId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(ID_LENGTH));
  let id = '';
  for (const byte of bytes) id += ALPHABET.charAt(byte % ALPHABET.length);
  return id;
}
