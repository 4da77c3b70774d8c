/**
 * What the fake model servers (../fake-model-servers.ts) share: the models they know, a
 * server's state across requests, and one request as each kind's routes see it.
 */
import type { ServerResponse } from 'node:http';
import type { FakeChatBehaviour } from '../fake-model-chat.js';
import type { FakeDownload } from '../fake-model-pulls.js';

export type FakeModelServerKind =
  'ollama' | 'lmstudio-v1' | 'lmstudio-v0' | 'llama.cpp' | 'llama.cpp-router' | 'vllm' | 'openai';

export interface FakeModel {
  name: string;
  size: number;
  loaded: boolean;
  contextLength: number;
  maxContextLength: number;
  tools: boolean;
  vision: boolean;
  thinking: boolean;
}

export const QWEN: FakeModel = {
  name: 'qwen3:4b',
  size: 2_497_293_918,
  loaded: true,
  contextLength: 4096,
  maxContextLength: 40960,
  tools: true,
  vision: false,
  thinking: true,
};
export const GEMMA: FakeModel = {
  name: 'gemma3:4b',
  size: 3_338_801_804,
  loaded: false,
  contextLength: 0,
  maxContextLength: 131072,
  tools: false,
  vision: true,
  thinking: false,
};

/** One fake server's state, shared by its requests. */
export interface FakeServerState {
  kind: FakeModelServerKind;
  models: FakeModel[];
  downloads: Map<string, FakeDownload>;
  behaviour: FakeChatBehaviour;
  /** llama.cpp router: the open `/models/sse` streams. */
  sseClients: Set<ServerResponse>;
  /** llama.cpp router: downloads stopped by `/models/unload`. */
  cancelled: Set<string>;
  /** The download of `name` (created on first ask), or undefined for a name the registry lacks. */
  download: (name: string) => FakeDownload | undefined;
  /** Adds a downloaded model (not loaded), unless the server has it. */
  addModel: (name: string, size: number) => void;
}

/** One request, read: its route, JSON body and the model it names. */
export interface FakeRequest {
  path: string;
  method: string;
  url: URL;
  body: Record<string, unknown>;
  /** `body.model`, else the `model` query parameter, else ''. */
  name: string;
  model: FakeModel | undefined;
  response: ServerResponse;
  json: (status: number, value: unknown) => void;
}

/** `GET /v1/models` as the OpenAI API answers it (vLLM adds `max_model_len`). */
export function modelsList({ kind, models }: FakeServerState): unknown {
  return {
    object: 'list',
    data: models.map((entry) => ({
      id: entry.name,
      object: 'model',
      // Each server's own word: Ollama gives the model's namespace (`library` for its own).
      owned_by:
        kind === 'vllm'
          ? 'vllm'
          : kind.startsWith('llama.cpp')
            ? 'llamacpp'
            : kind === 'ollama'
              ? 'library'
              : 'organization_owner',
      ...(kind === 'vllm' ? { max_model_len: entry.maxContextLength } : {}),
    })),
  };
}
