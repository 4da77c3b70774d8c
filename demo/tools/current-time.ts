import { z } from 'zod';
import { tool, type Tool } from '../../src/index.js';

/** The current date and time, in the browser's or a given time zone. */
export function currentTimeTool(needsApproval: boolean): Tool {
  return tool({
    name: 'current_time',
    description:
      'The current date and time. Optionally in an IANA time zone such as "Europe/Oslo".',
    input: z.object({ timeZone: z.string().optional() }),
    needsApproval,
    execute: ({ timeZone }) => {
      const now = new Date();
      const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
      const local = new Intl.DateTimeFormat('en-GB', {
        dateStyle: 'full',
        timeStyle: 'long',
        timeZone: zone,
      }).format(now);
      return { iso: now.toISOString(), local, timeZone: zone };
    },
  });
}
