import { AgentError } from '../errors/agent-error.js';
import type { StorageDamage } from '../history/history-store.js';

/** What a load found damaged, as the `STORAGE_FAILED` error `onError` is told (`context`: the damage). */
export function damageError(conversationId: string, damage: StorageDamage): AgentError {
  const parts = [
    ...(damage.unreadableMessages > 0
      ? [
          `${damage.unreadableMessages} ${damage.unreadableMessages === 1 ? 'message' : 'messages'} could not be read and ${damage.unreadableMessages === 1 ? 'is' : 'are'} left out`,
        ]
      : []),
    ...(damage.recordRepaired
      ? ['its record (message and page counts) was wrong and is repaired from its pages']
      : []),
    ...(damage.branchesLost ? ['its earlier versions could not be read and are left out'] : []),
  ];
  return new AgentError(
    'STORAGE_FAILED',
    `Stored conversation "${conversationId}" is damaged: ${parts.join('; ')}. Everything readable is shown, kept and exported.`,
    { context: { conversationId, ...damage } },
  );
}
