import { html, type TemplateResult } from 'lit';
import type { DemoSettings } from './demo-settings.js';
import { DEMO_TOOLS, type DemoToolName } from './tools/demo-tools.js';

/** Applies a change to the demo's settings (and saves them). */
type Update = (patch: Partial<DemoSettings>) => void;

/** The demo's tool settings: each built-in tool on or off, and whether it asks first. */
export function toolsPanel(settings: DemoSettings, update: Update): TemplateResult {
  const { tools, approval } = settings;
  const toggle = (set: Set<DemoToolName>, name: DemoToolName, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(name);
    else next.delete(name);
    return next;
  };
  return html`
    <section>
      <h2>Tools</h2>
      <ul class="tools">
        ${DEMO_TOOLS.map(
          ({ name, label, where }) => html`<li>
          <label class="choice">
            <input type="checkbox" .checked=${tools.has(name)} @change=${(event: Event) => update({ tools: toggle(tools, name, (event.target as HTMLInputElement).checked) })} />
            <span><strong>${label}</strong><small>${where}</small></span>
          </label>
          <label class="ask" title="Ask for approval before each call">
            <input type="checkbox" .checked=${approval.has(name)} ?disabled=${!tools.has(name)}
              @change=${(event: Event) => update({ approval: toggle(approval, name, (event.target as HTMLInputElement).checked) })} />
            ask first
          </label>
        </li>`,
        )}
      </ul>
    </section>`;
}

/** The demo's chat options: system prompt, running tools automatically, images, tool rounds. */
export function optionsPanel(settings: DemoSettings, update: Update): TemplateResult {
  const { systemPrompt, autoExecute, maxToolIterations, allowRemoteImages } = settings;
  return html`
    <section>
      <h2>Options</h2>
      <label>System prompt
        <textarea rows="3" .value=${systemPrompt} @change=${(event: Event) => update({ systemPrompt: (event.target as HTMLTextAreaElement).value })}></textarea>
      </label>
      <label class="inline"><input type="checkbox" .checked=${autoExecute} @change=${(event: Event) => update({ autoExecute: (event.target as HTMLInputElement).checked })} />
        Run tools automatically</label>
      <label class="inline"><input type="checkbox" .checked=${allowRemoteImages} @change=${(event: Event) => update({ allowRemoteImages: (event.target as HTMLInputElement).checked })} />
        Load remote images in answers</label>
      <label class="inline">Tool rounds per prompt
        <input type="number" min="1" max="20" .value=${String(maxToolIterations)} @change=${(event: Event) => update({ maxToolIterations: Number((event.target as HTMLInputElement).value) || 5 })} />
      </label>
    </section>`;
}
