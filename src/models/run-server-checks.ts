import { pageOrigin } from '../backend/page-origin.js';
import { errorMessage, isAgentError } from '../errors/agent-error.js';
import { checkImages, checkPlainAnswer, checkResponseFormat } from './check-answers.js';
import { checkCors, checkLocalNetworkAccess } from './check-access.js';
import { checkContext, checkTruncation } from './check-context.js';
import type {
  CheckServerOptions,
  ServerCheck,
  ServerCheckId,
  ServerReport,
} from './check-server.js';
import { checkTools } from './check-tools.js';
import type { ProbeContext } from './generation-probe.js';
import type { LocalModel, LocalModels } from './local-models.js';
import { openLocalModels } from './open-local-models.js';
import { getModelFix } from './server-fixes.js';
import type { ChecksRuntime } from './models-runtime.js';

const ORDER: readonly ServerCheckId[] = [
  'reachable',
  'cors',
  'local-network-access',
  'server',
  'model',
  'context',
  'truncation',
  'tool-calls',
  'tool-call-ids',
  'tool-arguments',
  'parallel-tool-calls',
  'reasoning',
  'usage',
  'images',
  'response-format',
  'cleanup',
];

/** Ollama (and LM Studio, by its overflow setting) may cut a long prompt; a window over this is not probed (the prompt would take long to read). */
const PROBED_WINDOW = 16_384;

/** `checkServer`'s body, loaded on its first call. */
export async function runServerChecks(
  options: CheckServerOptions,
  runtime: ChecksRuntime,
): Promise<ServerReport> {
  const started = performance.now();
  const checks: ServerCheck[] = [];
  let generations = 0;
  let maxOutputTokens = 0;
  const report = (extra: Partial<ServerReport> & { baseURL: string }): ServerReport => ({
    ...extra,
    checks: checks.sort((a, b) => ORDER.indexOf(a.id) - ORDER.indexOf(b.id)),
    generations,
    maxOutputTokens,
    elapsedMs: Math.round(performance.now() - started),
  });
  const { signal } = options;

  let models: LocalModels;
  try {
    models = await openLocalModels(
      {
        baseURL: options.baseURL,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(signal ? { signal } : {}),
      },
      runtime,
    );
  } catch (error) {
    if (isAgentError(error, 'EXECUTION_CANCELLED')) throw error;
    const [said, ...rest] = errorMessage(error).split('\n');
    checks.push({
      id: 'reachable',
      status: 'fail',
      detail: said ?? 'Nothing answered.',
      fix:
        rest.length > 0
          ? rest.join('\n')
          : 'Start the server, or check the address and port (and its /v1 part).',
    });
    return report({ baseURL: options.baseURL });
  }
  const { baseURL, server } = models;
  checks.push({ id: 'reachable', status: 'pass', detail: `${baseURL} answers.` });
  const inPage = pageOrigin() !== undefined;
  const origin = options.origin ?? pageOrigin();
  if (origin !== undefined && origin !== 'null') {
    checks.push(
      await checkCors({
        baseURL,
        origin,
        inPage,
        fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
        signal,
      }),
    );
    checks.push(checkLocalNetworkAccess(baseURL, origin));
  }
  const version = server.version === undefined ? '' : ` ${server.version}`;
  const variant = server.variant === undefined ? '' : ` (${variantName(server.variant)})`;
  checks.push(
    server.kind === 'openai-compatible'
      ? {
          id: 'server',
          status: 'warn',
          detail:
            'An OpenAI-compatible server of unknown kind: models can only be listed, and what it tells about them is little.',
          fix: 'Nothing to fix; Ollama, LM Studio, llama.cpp and vLLM are recognised and tell more.',
        }
      : { id: 'server', status: 'pass', detail: `${server.name}${version}${variant}.` },
  );

  let listed: LocalModel[];
  try {
    listed = await models.list(signal ? { signal } : {});
  } catch (error) {
    if (isAgentError(error, 'EXECUTION_CANCELLED')) throw error;
    checks.push({
      id: 'model',
      status: 'fail',
      detail: `The server did not list its models: ${errorMessage(error)}`,
      fix: 'Check the server log; restart it.',
    });
    return report({ baseURL, server });
  }
  const names = listed.map((model) => model.name);
  const chosen =
    options.model === undefined
      ? (listed.find((model) => model.loaded === true) ?? listed[0])
      : listed.find((model) => model.name === options.model);
  if (!chosen) {
    checks.push({
      id: 'model',
      status: 'fail',
      detail:
        options.model === undefined
          ? 'The server lists no model.'
          : `The server has no model "${options.model}".`,
      fix: getModelFix(server.kind, options.model, names),
    });
    return report({
      baseURL,
      server,
      ...(options.model === undefined ? {} : { model: options.model }),
    });
  }
  const model = chosen.name;
  checks.push(
    chosen.loaded === false
      ? {
          id: 'model',
          status: 'warn',
          detail: `${model} is on the server but not loaded: the first request loads it (seconds to minutes; open-agent shows "loading the model").`,
          fix: models.load
            ? `Load it ahead: \`localModels(…).load('${model}')\`.`
            : 'Load it in the server before the first message.',
        }
      : {
          id: 'model',
          status: 'pass',
          detail: `${model} ${chosen.loaded === true ? 'is loaded' : 'is listed'}.`,
        },
  );

  const context: ProbeContext = {
    runtime,
    baseURL,
    model,
    kind: server.kind,
    capabilities: chosen.capabilities,
    fetch: options.fetch,
    apiKey: options.apiKey,
    signal,
    spend: (tokens) => {
      generations++;
      maxOutputTokens += tokens;
    },
  };
  const tools = await checkTools(context);
  checks.push(...tools.checks);
  checks.push(...(await checkPlainAnswer(context)));
  checks.push(await checkImages(context));
  checks.push(await checkResponseFormat(context));

  // Listed again: the requests above loaded the model, so its window is known now.
  const now = (await models.list(signal ? { signal } : {}).catch(() => listed)).find(
    (entry) => entry.name === model,
  );
  checks.push(checkContext(now ?? chosen, context));
  const window = now?.contextLength;
  if (
    (server.kind === 'ollama' || server.kind === 'lmstudio') &&
    window !== undefined &&
    window <= PROBED_WINDOW
  ) {
    checks.push(await checkTruncation(context, window));
  }
  if (chosen.loaded === false && now?.loaded === true && models.unload) {
    try {
      await models.unload(model, signal ? { signal } : {});
      checks.push({
        id: 'cleanup',
        status: 'pass',
        detail: `${model} was not loaded before the checks: unloaded again.`,
      });
    } catch (error) {
      checks.push({
        id: 'cleanup',
        status: 'warn',
        detail: `${model} was loaded by the checks and could not be unloaded: ${errorMessage(error)}`,
        fix: "It unloads by itself after the server's idle time.",
      });
    }
  }
  return report({ baseURL, server, model });
}

function variantName(variant: 'v0' | 'v1' | 'router' | 'single'): string {
  switch (variant) {
    case 'v0':
      return 'REST API v0';
    case 'v1':
      return 'REST API v1';
    case 'router':
      return 'router mode';
    case 'single':
      return 'one model';
  }
}
