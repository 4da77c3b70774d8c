// Ollama's native /api/chat (`api: 'ollama'`), loaded by the fetch backend only when asked for:
// an app on an OpenAI-compatible endpoint does not ship its request mapping and NDJSON reader.
export { createOllamaBodyReader } from './ollama-body-reader.js';
export { toOllamaRequest } from './ollama-request.js';
