import { css } from 'lit';

/**
 * The theme: every colour, radius and font comes from a `--agent-chat-*` custom property
 * with a light default, and a dark default under `prefers-color-scheme: dark`. Also the
 * shared look of buttons, inputs and focus rings.
 */
export const themeStyles = css`
  :host {
    --_bg: var(--agent-chat-bg, #ffffff);
    --_surface: var(--agent-chat-surface, #f4f5f7);
    --_fg: var(--agent-chat-fg, #1b1e24);
    --_muted: var(--agent-chat-muted, #5f6b7c);
    --_border: var(--agent-chat-border, #e2e5ea);
    --_accent: var(--agent-chat-accent, #4f46e5);
    --_accent-fg: var(--agent-chat-accent-fg, #ffffff);
    --_user-bg: var(--agent-chat-user-bg, #eef0ff);
    --_user-fg: var(--agent-chat-user-fg, #1b1e24);
    --_code-bg: var(--agent-chat-code-bg, #f6f7f9);
    --_danger: var(--agent-chat-danger, #c4321f);
    --_warning: var(--agent-chat-warning, #a15c07);
    --_success: var(--agent-chat-success, #087a4a);
    --_focus: var(--agent-chat-focus, #4f46e5);
    --_radius: var(--agent-chat-radius, 10px);
    --_font: var(--agent-chat-font, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif);
    --_mono: var(--agent-chat-mono-font, ui-monospace, 'SF Mono', Menlo, Consolas, monospace);
    --_shadow: var(--agent-chat-shadow, 0 1px 2px rgb(16 24 40 / 6%), 0 1px 3px rgb(16 24 40 / 8%));
    color-scheme: light;
  }
  @media (prefers-color-scheme: dark) {
    :host {
      --_bg: var(--agent-chat-bg, #111318);
      --_surface: var(--agent-chat-surface, #1a1d24);
      --_fg: var(--agent-chat-fg, #e7e9ee);
      --_muted: var(--agent-chat-muted, #9aa4b2);
      --_border: var(--agent-chat-border, #2b303b);
      --_accent: var(--agent-chat-accent, #8d95ff);
      --_accent-fg: var(--agent-chat-accent-fg, #0f1115);
      --_user-bg: var(--agent-chat-user-bg, #272c4a);
      --_user-fg: var(--agent-chat-user-fg, #eef0ff);
      --_code-bg: var(--agent-chat-code-bg, #0b0d11);
      --_danger: var(--agent-chat-danger, #ff7b6b);
      --_warning: var(--agent-chat-warning, #f5b454);
      --_success: var(--agent-chat-success, #4cd391);
      --_focus: var(--agent-chat-focus, #a5abff);
      --_shadow: var(--agent-chat-shadow, 0 1px 3px rgb(0 0 0 / 40%));
      color-scheme: dark;
    }
  }
  * { box-sizing: border-box; }
  button, .button {
    font: inherit; font-size: 0.9em; color: var(--_fg); background: var(--_bg);
    border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 0.7);
    padding: 6px 12px; cursor: pointer; line-height: 1.3; display: inline-flex; align-items: center; gap: 6px;
  }
  button:hover:not(:disabled), .button:hover { background: var(--_surface); }
  button:disabled { opacity: 0.5; cursor: not-allowed; }
  button.primary { background: var(--_accent); color: var(--_accent-fg); border-color: transparent; }
  button.primary:hover:not(:disabled) { background: var(--_accent); filter: brightness(1.08); }
  button.danger { color: var(--_danger); }
  button.link { border: 0; background: none; color: var(--_accent); padding: 2px 0; }
  input, textarea { font: inherit; color: var(--_fg); background: var(--_bg); border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 0.7); padding: 6px 8px; }
  :focus-visible, .button:focus-within { outline: 2px solid var(--_focus); outline-offset: 2px; }
  .visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
  .muted { color: var(--_muted); }
`;
