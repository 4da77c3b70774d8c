import { checkServer } from './check-server.js';
import { formatReport } from './format-report.js';

/** Where the command writes, and how it ends. */
export interface CliOutput {
  out: (text: string) => void;
  err: (text: string) => void;
  /** Colours for a terminal. */
  colour?: boolean;
  fetch?: typeof globalThis.fetch;
}

const USAGE = `Usage: open-agent doctor <baseURL> [--model M] [--origin URL] [--json]

Checks a model server (Ollama, LM Studio, llama.cpp, vLLM, any OpenAI-compatible one)
and one of its models: reachable, CORS for a page at --origin, server and version, the
model and its context window, tool calling, reasoning, usage, images, response_format.
At most five short generations; nothing is pulled or changed.

  --model M      the model to check (default: the loaded one, else the first listed)
  --origin URL   also check that a page at URL may call the server (CORS, Local Network Access)
  --json         print the report as JSON`;

/**
 * `open-agent doctor …`: runs {@link checkServer} and prints its report. Resolves with the
 * exit code: 0 when nothing failed, 1 when a check failed, 2 for a usage error.
 */
export async function runCli(argv: readonly string[], output: CliOutput): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    output.out(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command !== 'doctor') {
    output.err(`Unknown command "${command}".\n\n${USAGE}`);
    return 2;
  }
  let baseURL: string | undefined;
  let model: string | undefined;
  let origin: string | undefined;
  let json = false;
  for (let index = 0; index < rest.length; index++) {
    const arg = rest[index] ?? '';
    if (arg === '--json') json = true;
    else if (arg === '--model' || arg === '--origin') {
      const value = rest[++index];
      if (value === undefined) {
        output.err(`${arg} needs a value.\n\n${USAGE}`);
        return 2;
      }
      if (arg === '--model') model = value;
      else origin = value;
    } else if (arg.startsWith('--')) {
      output.err(`Unknown option ${arg}.\n\n${USAGE}`);
      return 2;
    } else baseURL ??= arg;
  }
  if (baseURL === undefined || !/^https?:\/\//.test(baseURL)) {
    output.err(`Give the server's address, e.g. http://localhost:11434.\n\n${USAGE}`);
    return 2;
  }
  const report = await checkServer({
    baseURL,
    ...(model === undefined ? {} : { model }),
    ...(origin === undefined ? {} : { origin }),
    ...(output.fetch ? { fetch: output.fetch } : {}),
  });
  output.out(
    json
      ? JSON.stringify(report, null, 2)
      : formatReport(report, { colour: output.colour ?? false }),
  );
  return report.checks.some((check) => check.status === 'fail') ? 1 : 0;
}
