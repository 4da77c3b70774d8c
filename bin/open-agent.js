#!/usr/bin/env node
// `npx open-agent doctor <baseURL> [--model M] [--origin URL] [--json]`: the command lives in
// dist/cli.js (src/models/doctor-cli.ts, built by `npm run build`); this file only wires it to
// the terminal.
import { runCli } from '../dist/cli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  colour: process.stdout.isTTY === true && !('NO_COLOR' in process.env),
});
