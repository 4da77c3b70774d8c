// The conversation file's identifiers, apart from the code that reads and writes the file: an app
// can name them without loading that code (it loads with the first export or import).

/** The `format` field of an exported conversation. */
export const CONVERSATION_FILE_FORMAT = 'open-agent-conversation';
/**
 * The `version` field this code writes. It reads this one and every earlier one: version 1
 * files have no `forks`. Display-only message fields (an assistant message's `reasoning`, a
 * tool message's `durationMs`) are optional: readers that predate them drop them, so they
 * need no new version.
 */
export const CONVERSATION_FILE_VERSION = 2;
