/** vLLM (`/version`, `/v1/models` with `max_model_len`) and a bare OpenAI-compatible server (`/v1/models` only). */
import { modelsList, type FakeRequest, type FakeServerState } from './shared.js';

export function vllmRoutes({ path, json }: FakeRequest, state: FakeServerState): void {
  if (path === '/version') return json(200, { version: '0.11.0' });
  if (path === '/v1/models') return json(200, modelsList(state));
  return json(404, { detail: 'Not Found' });
}

export function openAiRoutes({ path, json }: FakeRequest, state: FakeServerState): void {
  if (path === '/v1/models') return json(200, modelsList(state));
  return json(404, { error: { message: 'Not found' } });
}
