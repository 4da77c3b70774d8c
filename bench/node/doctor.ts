import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import {
  DOCTOR_SCENARIOS,
  startScenario,
  withoutPort,
} from '../../test/models/doctor-scenarios.js';
import { checked, skipped, type Figure } from '../support/figure.js';

const run = promisify(execFile);

/**
 * `open-agent doctor` against each fake server kind (test/models/doctor-scenarios.ts), as a
 * user runs it: `node bin/open-agent.js doctor <url>` (the built dist/cli.js), wall time from
 * spawn to exit — Node's start included. Prints each terminal report. Target: under 5 s each.
 */
export async function doctorFigures(): Promise<Figure[]> {
  if (!existsSync('dist/cli.js')) {
    return [
      skipped({
        id: 'doctor',
        label: 'open-agent doctor',
        unit: 'ms',
        note: 'dist/cli.js missing: run `npm run build` first',
      }),
    ];
  }
  const figures: Figure[] = [];
  for (const scenario of DOCTOR_SCENARIOS) {
    const server = await startScenario(scenario);
    try {
      const args = [
        'bin/open-agent.js',
        'doctor',
        server.url,
        ...(scenario.model ? ['--model', scenario.model] : []),
        ...(scenario.origin ? ['--origin', scenario.origin] : []),
      ];
      const started = performance.now();
      const result = await run(process.execPath, args, {
        env: { ...process.env, NO_COLOR: '1' },
      }).catch((error: { stdout?: string; code?: number }) => ({
        stdout: error.stdout ?? '',
        code: error.code,
      }));
      const elapsed = performance.now() - started;
      console.log(
        `\n$ npx open-agent doctor ${args.slice(3).join(' ') ? `<${scenario.name}> ${args.slice(3).join(' ')}` : `<${scenario.name}>`}\n${withoutPort(result.stdout, server.url)}`,
      );
      figures.push(
        checked({
          id: `doctor.${scenario.name}`,
          label: `open-agent doctor: ${scenario.name} (loopback fake, whole command)`,
          value: Math.round(elapsed),
          unit: 'ms',
          target: { op: '<', limit: 5_000 },
          note: 'node bin/open-agent.js doctor <url>: spawn to exit, Node start included',
        }),
      );
    } finally {
      await server.close();
    }
  }
  return figures;
}
