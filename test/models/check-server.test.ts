import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkServer } from '../../src/index.js';
import { formatReport } from '../../src/models/format-report.js';
import { runCli } from '../../src/models/doctor-cli.js';
import { startFakeModelServer } from '../support/fake-model-servers.js';
import { DOCTOR_SCENARIOS, startScenario, withoutPort } from './doctor-scenarios.js';

const fixture = (name: string) => new URL(`../fixtures/doctor/${name}.txt`, import.meta.url);

describe('checkServer: the report for each fake server, whole', () => {
  it.each(DOCTOR_SCENARIOS.map((scenario) => [scenario.name, scenario] as const))(
    '%s',
    async (name, scenario) => {
      const server = await startScenario(scenario);
      try {
        const report = await checkServer({
          baseURL: server.url,
          ...(scenario.model ? { model: scenario.model } : {}),
          ...(scenario.origin ? { origin: scenario.origin } : {}),
        });
        const text = withoutPort(formatReport(report), server.url);
        // Reviewed by eye when first written (WRITE_DOCTOR_REPORTS=1), then compared whole.
        if (process.env.WRITE_DOCTOR_REPORTS === '1' || !existsSync(fixture(name)))
          writeFileSync(fixture(name), `${text}\n`);
        expect(text).toBe(readFileSync(fixture(name), 'utf8').trimEnd());
        for (const check of report.checks)
          if (check.status === 'fail') expect(check.fix, check.id).toBeTruthy();
        // Nothing left behind: no pull, no delete, no load that is not undone.
        expect(
          server.requests.filter((request) => /pull|delete|download|DELETE|\/load/.test(request)),
        ).toEqual([]);
        expect(server.models.map((model) => [model.name, model.loaded])).toEqual(
          (scenario.server.models ?? []).length > 0
            ? scenario.server.models?.map((model) => [model.name, model.loaded])
            : [
                ['qwen3:4b', true],
                ['gemma3:4b', false],
              ],
        );
      } finally {
        await server.close();
      }
    },
  );

  it('nothing at the address: one failed check that says what to do', async () => {
    const server = await startFakeModelServer({ kind: 'openai' });
    await server.close();
    const report = await checkServer({ baseURL: server.url });
    expect(report.checks).toEqual([
      {
        id: 'reachable',
        status: 'fail',
        detail: `Nothing answered at ${server.url}: start the server, or check the address and port.`,
        fix: 'Start the server, or check the address and port (and its /v1 part).',
      },
    ]);
    expect(report.generations).toBe(0);
  });
});

describe('open-agent doctor', () => {
  it('prints the report; exit code 1 when a check failed, 0 when none did', async () => {
    const server = await startFakeModelServer({ kind: 'vllm' });
    try {
      let out = '';
      const ok = await runCli(['doctor', server.url, '--model', 'qwen3:4b'], {
        out: (text) => (out += text),
        err: () => undefined,
      });
      expect(ok).toBe(0);
      expect(out).toMatch(/^open-agent doctor: .*\nvLLM 0\.11\.0 · model qwen3:4b\n/);
      let json = '';
      const failed = await runCli(['doctor', server.url, '--model', 'nope', '--json'], {
        out: (text) => (json += text),
        err: () => undefined,
      });
      expect(failed).toBe(1);
      expect(
        (JSON.parse(json) as { checks: { id: string; status: string }[] }).checks.at(-1),
      ).toMatchObject({ id: 'model', status: 'fail' });
    } finally {
      await server.close();
    }
  });

  it('a usage error is exit code 2', async () => {
    let err = '';
    expect(await runCli(['doctor'], { out: () => undefined, err: (text) => (err += text) })).toBe(
      2,
    );
    expect(err).toMatch(/Usage: open-agent doctor <baseURL>/);
  });
});
