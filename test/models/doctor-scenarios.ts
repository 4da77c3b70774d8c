/** The servers the doctor's reports are checked against (test/models/check-server.test.ts, bench). */
import {
  QWEN,
  startFakeModelServer,
  type FakeModelServer,
  type FakeModelServerOptions,
} from '../support/fake-model-servers.js';

export interface DoctorScenario {
  name: string;
  server: FakeModelServerOptions;
  model?: string;
  origin?: string;
}

export const DOCTOR_SCENARIOS: readonly DoctorScenario[] = [
  { name: 'ollama', server: { kind: 'ollama' }, origin: 'http://localhost:5173' },
  {
    name: 'ollama-lying',
    server: { kind: 'ollama', chat: { toolCalls: 'text' } },
    model: 'qwen3:4b',
  },
  {
    name: 'ollama-not-loaded-no-tools',
    server: { kind: 'ollama', chat: { toolCalls: 'none' } },
    model: 'gemma3:4b',
  },
  { name: 'ollama-missing-model', server: { kind: 'ollama' }, model: 'llama3.2:3b' },
  {
    name: 'ollama-cors-blocked',
    server: { kind: 'ollama', origins: [] },
    origin: 'https://chat.example.com',
  },
  { name: 'lmstudio-v1', server: { kind: 'lmstudio-v1' } },
  { name: 'lmstudio-v0', server: { kind: 'lmstudio-v0' } },
  { name: 'llama.cpp', server: { kind: 'llama.cpp' } },
  { name: 'llama.cpp-router', server: { kind: 'llama.cpp-router' } },
  { name: 'vllm', server: { kind: 'vllm' } },
  { name: 'openai', server: { kind: 'openai' } },
  {
    name: 'openai-bare',
    server: {
      kind: 'openai',
      models: [{ ...QWEN, vision: false }],
      chat: {
        usage: false,
        jsonSchema: false,
        ids: false,
        parallel: false,
        streamArguments: false,
        reasoning: 'tags',
      },
    },
  },
];

/** Starts the scenario's server. */
export function startScenario(scenario: DoctorScenario): Promise<FakeModelServer> {
  return startFakeModelServer(scenario.server);
}

/** The report with the fake's port replaced (it changes per run). */
export function withoutPort(text: string, url: string): string {
  return text.replaceAll(url, 'http://127.0.0.1:PORT');
}
