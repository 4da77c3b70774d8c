import { DEMO_TOOLS, type DemoToolName } from './tools/demo-tools.js';
import { WEB_LLM_MODELS } from './web-llm.js';

/** Where the model comes from. */
export type ModelSource = 'demo' | 'server' | 'webllm' | 'cpu' | 'chrome';

/** Everything the settings panel controls. */
export interface DemoSettings {
  source: ModelSource;
  baseURL: string;
  model: string;
  webLLMModel: string;
  systemPrompt: string;
  tools: Set<DemoToolName>;
  approval: Set<DemoToolName>;
  autoExecute: boolean;
  maxToolIterations: number;
  allowRemoteImages: boolean;
  conversationId: string;
  /** Retries of a failed request (URL only, `?retries=0` in e2e). Default: the runtime's. */
  maxRetries?: number;
  /** The CPU engine's sampling seed (URL only, `?seed=7`: reproducible answers in e2e). Default: random. */
  seed?: number;
  /**
   * `required`: every model call must call a tool (URL only, `?toolChoice=required`: an in-page
   * engine's constrained output then holds calls only, so e2e gets a tool turn whatever a
   * random-weight model leans to). Default: the model chooses.
   */
  toolChoice?: 'required';
}

const STORAGE_KEY = 'open-agent-demo:settings';
const CONVERSATION_KEY = 'open-agent-demo:conversation';
const TOOL_NAMES = new Set<string>(DEMO_TOOLS.map((entry) => entry.name));

/**
 * The settings: URL parameters first (e2e and shared links: `?baseURL=…&model=…&tools=a,b
 * &approval=run_javascript&conversation=id&system=…&autoExecute=false&maxIterations=3
 * &source=demo|server|webllm|cpu|chrome&images=1&retries=0&seed=7&toolChoice=required`), then what
 * was saved last time, then defaults.
 */
export function readSettings(url = new URL(location.href)): DemoSettings {
  const saved = loadSaved();
  const params = url.searchParams;
  const baseURL = params.get('baseURL') ?? saved.baseURL ?? 'http://localhost:11434/v1';
  const source =
    parseSource(params.get('source')) ??
    (params.has('baseURL') ? 'server' : (parseSource(saved.source) ?? 'demo'));
  return {
    source,
    baseURL,
    model: params.get('model') ?? saved.model ?? '',
    // A model saved by an older demo may be one WebLLM no longer runs tools with.
    webLLMModel: WEB_LLM_MODELS.find((id) => id === saved.webLLMModel) ?? WEB_LLM_MODELS[0],
    systemPrompt:
      params.get('system') ??
      saved.systemPrompt ??
      'You are a helpful assistant. Use the tools when they help, and answer in markdown.',
    tools:
      toolSet(params.get('tools')) ??
      toolSet(saved.tools?.join(',') ?? null) ??
      new Set(DEMO_TOOLS.map((entry) => entry.name)),
    approval:
      toolSet(params.get('approval')) ??
      toolSet(saved.approval?.join(',') ?? null) ??
      new Set(['run_javascript']),
    autoExecute: flag(params.get('autoExecute')) ?? saved.autoExecute ?? true,
    maxToolIterations: Number(params.get('maxIterations') ?? saved.maxToolIterations ?? 5) || 5,
    allowRemoteImages: flag(params.get('images')) ?? saved.allowRemoteImages ?? false,
    conversationId:
      params.get('conversation') ?? localStorage.getItem(CONVERSATION_KEY) ?? crypto.randomUUID(),
    ...(params.has('retries') ? { maxRetries: Number(params.get('retries')) } : {}),
    ...(params.has('seed') ? { seed: Number(params.get('seed')) } : {}),
    ...(params.get('toolChoice') === 'required' ? { toolChoice: 'required' as const } : {}),
  };
}

/** Remembers the settings (and the open conversation) for the next visit. */
export function saveSettings(settings: DemoSettings): void {
  const {
    tools,
    approval,
    conversationId,
    maxRetries: _urlOnly,
    seed: _alsoUrlOnly,
    toolChoice: _urlOnlyToo,
    ...rest
  } = settings;
  localStorage.setItem(
    STORAGE_KEY,
    JSON.stringify({ ...rest, tools: [...tools], approval: [...approval] }),
  );
  localStorage.setItem(CONVERSATION_KEY, conversationId);
  const url = new URL(location.href);
  if (
    url.searchParams.has('conversation') &&
    url.searchParams.get('conversation') !== conversationId
  ) {
    url.searchParams.set('conversation', conversationId);
    history.replaceState(null, '', url);
  }
}

type Saved = Partial<
  Omit<DemoSettings, 'tools' | 'approval'> & { tools: string[]; approval: string[] }
>;

function loadSaved(): Saved {
  let value: unknown;
  try {
    value = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? '{}');
  } catch {
    return {};
  }
  if (typeof value !== 'object' || value === null) return {};
  const record = value as Record<string, unknown>; // an object; each field is checked below
  const saved: Saved = {};
  for (const key of ['baseURL', 'model', 'webLLMModel', 'systemPrompt'] as const) {
    const field = record[key];
    if (typeof field === 'string') saved[key] = field;
  }
  for (const key of ['autoExecute', 'allowRemoteImages'] as const) {
    const field = record[key];
    if (typeof field === 'boolean') saved[key] = field;
  }
  if (typeof record.maxToolIterations === 'number')
    saved.maxToolIterations = record.maxToolIterations;
  const source = parseSource(typeof record.source === 'string' ? record.source : undefined);
  if (source) saved.source = source;
  for (const key of ['tools', 'approval'] as const) {
    const field = record[key];
    if (Array.isArray(field))
      saved[key] = field.filter((name): name is string => typeof name === 'string');
  }
  return saved;
}

function parseSource(value: string | null | undefined): ModelSource | undefined {
  return value === 'demo' ||
    value === 'server' ||
    value === 'webllm' ||
    value === 'cpu' ||
    value === 'chrome'
    ? value
    : undefined;
}

function toolSet(value: string | null): Set<DemoToolName> | undefined {
  if (value === null) return undefined;
  const names = value
    .split(',')
    .map((name) => name.trim())
    .filter((name) => TOOL_NAMES.has(name));
  return new Set(names as DemoToolName[]); // filtered to known names just above
}

function flag(value: string | null): boolean | undefined {
  if (value === null) return undefined;
  return !['0', 'false', 'off', 'no'].includes(value.toLowerCase());
}
