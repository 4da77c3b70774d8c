import { css } from 'lit';

/**
 * The look of `<agent-chat>` (colours come from {@link themeStyles}).
 *
 * Focus rings: `.message` uses content-visibility, which clips paint to its padding box,
 * so its 4px padding keeps the rings (2px + 2px offset) of links and buttons at its edge
 * visible. Scroll containers (keyboard-focusable in Chromium) and the copy button inside
 * the clipped code block draw their ring inside. A tool card uses content-visibility too (200
 * cards off screen cost no layout and no paint): its 10px padding keeps its buttons' rings. The
 * header's slot and what is slotted there clip (a long title ends in an ellipsis) 4px out of their
 * box (`overflow: clip` with `overflow-clip-margin`), so a slotted control's ring (the model
 * picker's button) shows whole. (Comments stay out of the CSS text: it ships as written.)
 */
export const chatStyles = css`
  :host {
    display: block; box-sizing: border-box; position: relative; height: min(640px, 100dvh); min-height: 320px; overflow: hidden;
    font-family: var(--_font); font-size: var(--agent-chat-font-size, 15px); color: var(--_fg); background: var(--_bg);
    border: 1px solid var(--_border); border-radius: var(--_radius); container-type: inline-size;
  }
  .frame { display: grid; grid-template-columns: minmax(0, 1fr); grid-template-rows: minmax(0, 1fr); height: 100%; }
  .frame.with-sidebar { grid-template-columns: minmax(200px, 260px) minmax(0, 1fr); }
  aside { display: flex; min-height: 0; border-inline-end: 1px solid var(--_border); background: var(--_surface); }
  aside agent-conversations { flex: 1; min-width: 0; }
  @container (max-width: 640px) {
    .frame.with-sidebar { grid-template-columns: minmax(0, 1fr); }
    .frame.with-sidebar aside { position: absolute; z-index: 3; inset-block: 49px 0; inset-inline-start: 0; width: min(85%, 300px); box-shadow: var(--_shadow); }
  }
  .main { position: relative; display: flex; flex-direction: column; min-height: 0; min-width: 0; }
  .main > header { display: flex; align-items: center; gap: 8px; padding: 8px 12px; border-bottom: 1px solid var(--_border); min-height: 48px; min-width: 0; }
  .main > header .title { font-weight: 600; }
  .main > header ::slotted(*), .main > header .title { min-width: 0; overflow: clip; overflow-clip-margin: 4px; text-overflow: ellipsis; white-space: nowrap; }
  .main > header > :is(button, .context) { flex: none; white-space: nowrap; }
  .main > header > slot { display: block; min-width: 0; flex: 0 1 auto; overflow: clip; overflow-clip-margin: 4px; }
  .main > header .spacer { flex: 1; }
  .context { display: inline-flex; align-items: center; gap: 6px; font-size: 0.8em; color: var(--_muted); white-space: nowrap; }
  .context meter { inline-size: 4em; block-size: 0.6em; }
  @container (max-width: 420px) { .context meter { display: none; } }
  button.icon { border: 0; background: none; font-size: 1.1em; padding: 4px 8px; }
  .log { flex: 1; overflow-y: auto; overscroll-behavior: contain; }
  .log-content { min-height: 100%; padding: 16px 12px 4px; display: flex; flex-direction: column; gap: 12px; }
  .message { width: 100%; max-width: calc(var(--agent-chat-max-width, 760px) + 8px); padding: 4px; margin: 0 auto; content-visibility: auto; contain-intrinsic-size: auto 68px; }
  :is(.log, pre, .reasoning-text, .tool-args, .tool-error, .banner-text, .markdown table, .code-bar button):focus-visible { outline-offset: -2px; }
  .message.user { display: flex; flex-direction: column; align-items: flex-end; gap: 6px; }
  .bubble { background: var(--_user-bg); color: var(--_user-fg); padding: 9px 14px; border-radius: var(--_radius); border-end-end-radius: 4px;
    white-space: pre-wrap; overflow-wrap: anywhere; max-width: min(85%, 620px); line-height: 1.5; }
  .message.assistant { display: flex; flex-direction: column; gap: 10px; line-height: 1.6; }
  .message.assistant.failed .markdown:last-of-type { opacity: 0.85; }
  .note { margin: 0; font-size: 0.82em; color: var(--_muted); }
  .empty { margin: auto; text-align: center; color: var(--_muted); max-width: 520px; padding: 24px; }
  .loading { margin: auto; color: var(--_muted); }
  .earlier { align-self: center; }

  .markdown { overflow-wrap: anywhere; }
  .markdown .plain { white-space: pre-wrap; }
  .markdown > .block:empty { display: none; }
  .markdown > .show-more { display: block; margin-top: 0.5em; font-size: 0.9em; }
  :is(.markdown > .overflow > .block, .tool-result .slice) { content-visibility: auto; contain-intrinsic-size: auto 20em; }
  .tool-result .slice { display: block; }
  .markdown :is(p, ul, ol, blockquote, table, h1, h2, h3, h4, h5, h6, .code-block) { margin: 0 0 0.7em; }
  .markdown > :last-child > :last-child, .markdown > :last-child { margin-bottom: 0; }
  .markdown :is(h1, h2, h3, h4) { line-height: 1.3; margin-top: 0.9em; }
  .markdown h1 { font-size: 1.35em; } .markdown h2 { font-size: 1.2em; } .markdown h3 { font-size: 1.05em; }
  .markdown :is(ul, ol) { padding-inline-start: 1.4em; }
  .markdown li + li { margin-top: 0.2em; }
  .markdown a { color: var(--_accent); text-underline-offset: 2px; }
  .markdown a:not([href]) { color: inherit; text-decoration: line-through dotted; }
  .markdown blockquote { border-inline-start: 3px solid var(--_border); padding-inline-start: 12px; color: var(--_muted); }
  .markdown :not(pre) > code { font-family: var(--_mono); font-size: 0.88em; background: var(--_surface); border: 1px solid var(--_border); border-radius: 5px; padding: 0.05em 0.35em; }
  .markdown table { border-collapse: collapse; display: block; overflow-x: auto; }
  .markdown :is(th, td) { border: 1px solid var(--_border); padding: 5px 10px; text-align: start; }
  .markdown th { background: var(--_surface); }
  .markdown img { max-width: 100%; border-radius: 6px; }
  .markdown hr { border: 0; border-top: 1px solid var(--_border); }
  .blocked-image { display: inline-block; font-size: 0.85em; color: var(--_muted); border: 1px dashed var(--_border); border-radius: 6px; padding: 2px 8px; }
  .code-block { border: 1px solid var(--_border); border-radius: calc(var(--_radius) * 0.8); background: var(--_code-bg); overflow: hidden; }
  .code-bar { display: flex; align-items: center; justify-content: space-between; padding-block: 3px; padding-inline: 12px 6px; font-size: 0.78em; color: var(--_muted); border-bottom: 1px solid var(--_border); }
  .code-bar button { font-size: 0.95em; padding: 2px 8px; border-color: transparent; background: none; }
  .json summary { cursor: pointer; }
  .code-block pre { margin: 0; padding: 12px 14px; overflow-x: auto; font-family: var(--_mono); font-size: 0.86em; line-height: 1.5; }

  .reasoning { border-inline-start: 3px solid var(--_border); padding-block: 2px; padding-inline: 12px 0; color: var(--_muted); font-size: 0.92em; }
  .reasoning summary { cursor: pointer; width: fit-content; border-radius: 4px; }
  .reasoning.streaming summary { color: var(--_accent); }
  .reasoning.streaming summary::after { content: ''; display: inline-block; width: 6px; height: 6px; margin-inline-start: 8px; border-radius: 50%; background: currentColor; animation: pulse 1s infinite; vertical-align: middle; }
  .reasoning-text { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 260px; overflow: auto; margin-top: 6px; }

  .tool { display: grid; gap: 8px; border: 1px solid var(--_border); border-radius: var(--_radius); background: var(--_surface); padding: 10px 12px; font-size: 0.9em; content-visibility: auto; contain-intrinsic-size: auto 160px; }
  .tool.approval { border-color: var(--_warning); box-shadow: 0 0 0 3px color-mix(in srgb, var(--_warning) 14%, transparent); }
  .tool-head { display: flex; align-items: center; gap: 8px; min-width: 0; }
  .tool-icon { display: inline-grid; place-items: center; width: 20px; height: 20px; border-radius: 50%; font-size: 0.8em; font-weight: 700; background: var(--_bg); border: 1px solid var(--_border); flex: none; }
  :is(.tool.running, .tool.receiving) .tool-icon { color: var(--_accent); animation: spin 1s linear infinite; border-color: transparent; }
  .tool.done .tool-icon { color: var(--_success); }
  .tool:is(.error, .denied) .tool-icon { color: var(--_danger); }
  .tool:is(.approval, .external) .tool-icon { color: var(--_warning); }
  .tool-name { font-family: var(--_mono); font-weight: 600; overflow: hidden; text-overflow: ellipsis; }
  .tool-status { margin-inline-start: auto; color: var(--_muted); font-size: 0.88em; display: flex; gap: 6px; white-space: nowrap; }
  .tool.approval .tool-status { color: var(--_warning); font-weight: 600; }
  .tool :is(.tool-args, .tool-error), .tool-result pre {
    margin: 0; font-family: var(--_mono); font-size: 0.85em; line-height: 1.45; background: var(--_bg); border: 1px solid var(--_border);
    border-radius: 6px; padding: 8px 10px; max-height: 260px; overflow: auto; white-space: pre-wrap; overflow-wrap: anywhere;
  }
  .tool .tool-error { color: var(--_danger); }
  :is(.tool-args, .tool-result pre, .tool-edit, .code-block pre) { direction: ltr; text-align: left; }
  .tool-result summary { cursor: pointer; width: fit-content; font-weight: 500; margin-bottom: 6px; border-radius: 4px; }
  .tool-note { margin: 0; color: var(--_muted); font-style: italic; }
  .tool-actions { display: flex; flex-wrap: wrap; gap: 8px; }
  .tool-edit-label { font-weight: 500; }
  .tool-edit { width: 100%; min-height: 120px; font-family: var(--_mono); font-size: 0.85em; resize: vertical; }

  .error-fix { white-space: pre-line; margin-top: 4px; }
  .typing { display: flex; align-items: center; gap: 4px; padding: 6px 0; }
  .typing .waiting { align-self: center; margin-inline-start: 6px; color: var(--_muted); font-size: 0.9em; font-variant-numeric: tabular-nums; }
  .typing span { width: 7px; height: 7px; border-radius: 50%; background: var(--_muted); animation: pulse 1.2s infinite; }
  .typing span:nth-child(2) { animation-delay: 0.2s; } .typing span:nth-child(3) { animation-delay: 0.4s; }

  .jump { position: relative; }
  .jump > button { position: absolute; left: 50%; bottom: 12px; transform: translateX(-50%); border-radius: 999px; box-shadow: var(--_shadow); z-index: 2; }
  .banner { display: flex; flex-wrap: wrap; gap: 12px; align-items: flex-start; margin: 0 16px 8px; padding: 10px 12px; border-radius: var(--_radius); font-size: 0.9em; }
  .banner.error { background: color-mix(in srgb, var(--_danger) 9%, var(--_bg)); border: 1px solid color-mix(in srgb, var(--_danger) 40%, transparent); }
  .banner.warning { background: color-mix(in srgb, var(--_warning) 9%, var(--_bg)); border: 1px solid color-mix(in srgb, var(--_warning) 40%, transparent); }
  .banner-text { flex: 1 1 14em; display: grid; gap: 4px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 35vh; overflow: auto; }
  .banner.error strong { color: var(--_danger); }
  .banner-text code { font-family: var(--_mono); font-size: 0.92em; }
  .banner-text summary { cursor: pointer; color: var(--_muted); }
  .banner-actions { display: flex; flex-wrap: wrap; gap: 6px; flex: none; }
  .composer { display: flex; gap: 8px; align-items: flex-end; padding: 8px 16px 16px; width: 100%; max-width: calc(var(--agent-chat-max-width, 760px) + 32px); margin: 0 auto; }
  .composer textarea:disabled { background: var(--_surface); cursor: not-allowed; }
  .composer textarea { flex: 1 1 0; min-width: min(60%, 100%); resize: none; field-sizing: content; min-height: 46px; max-height: 220px; padding: 11px 14px; border-radius: var(--_radius); line-height: 1.45; box-shadow: var(--_shadow); }
  .composer button { min-height: 46px; padding: 0 18px; border-radius: var(--_radius); }
  .composer { flex-wrap: wrap; justify-content: flex-end; }
  .images { display: flex; flex-wrap: wrap; gap: 6px; justify-content: flex-end; }
  .images img { max-height: 72px; max-width: 160px; border-radius: 8px; }
  .attach { align-self: center; display: grid; place-items: center; min-width: 40px; min-height: 40px; border-radius: var(--_radius); cursor: pointer; color: var(--_muted); font-size: 1.6em; }
  .attach:focus-within { outline: 2px solid var(--_accent); outline-offset: 2px; }
  .composer .stop { color: var(--_danger); border-color: color-mix(in srgb, var(--_danger) 50%, transparent); }

  @keyframes pulse { 0%, 100% { opacity: 0.35; } 50% { opacity: 1; } }
  @keyframes spin { to { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) { *, *::after { animation: none !important; } }
`;
