/**
 * open-agent/components/model-picker: `<agent-model-picker>`, the opt-in model picker of
 * `<agent-chat>` (put it in the chat's `header` slot). Importing this module defines it. Its
 * panel — the server's models, downloads, "Check this server" — loads when it first opens;
 * a chat without it ships none of it.
 *
 * @example
 * import 'open-agent/components';
 * import 'open-agent/components/model-picker';
 * // <agent-chat base-url="http://localhost:11434/v1" model="qwen3:4b">
 * //   <agent-model-picker slot="header"></agent-model-picker>
 * // </agent-chat>
 * @packageDocumentation
 */
import { AgentModelPicker } from './agent-model-picker.js';

export { AgentModelPicker } from './agent-model-picker.js';

if (!customElements.get('agent-model-picker'))
  customElements.define('agent-model-picker', AgentModelPicker);
