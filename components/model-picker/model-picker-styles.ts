import { css } from 'lit';

/**
 * The picker's panel: under the chat's header, as wide as it may be on a phone. Scoped by the
 * element's name: it renders into the picker's shadow root (which gives it the chat's theme)
 * and adopts this sheet there. Placed against the chat's main column (the header's slot clips
 * its own box, not this), with the text wrapping the slot turned off.
 */
export const modelPickerStyles = css`
  agent-model-panel {
    position: absolute;
    z-index: 4;
    inset-block-start: 49px;
    inset-inline-start: 8px;
    inline-size: min(420px, calc(100% - 16px));
    white-space: normal;
    font-weight: normal;
  }
  agent-model-panel .panel {
    background: var(--_bg);
    color: var(--_fg);
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow:
      var(--_shadow),
      0 8px 24px rgb(16 24 40 / 14%);
    padding: 10px 12px 12px;
    max-block-size: min(70vh, 560px);
    overflow-y: auto;
    font-family: var(--_font);
    display: flex;
    flex-direction: column;
    gap: 8px;
  }
  agent-model-panel .top {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
  }
  agent-model-panel button.icon {
    border: 0;
    background: none;
    padding: 4px 8px;
  }
  agent-model-panel ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  agent-model-panel .models {
    display: flex;
    flex-direction: column;
    gap: 2px;
  }
  agent-model-panel button.model {
    inline-size: 100%;
    justify-content: space-between;
    flex-wrap: wrap;
    border-color: transparent;
    text-align: start;
  }
  agent-model-panel button.model.current {
    border-color: var(--_accent);
    background: var(--_surface);
  }
  agent-model-panel .name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  agent-model-panel .meta {
    display: inline-flex;
    flex-wrap: wrap;
    gap: 4px;
    align-items: center;
    font-size: 0.85em;
    color: var(--_muted);
  }
  agent-model-panel .mark {
    border: 1px solid var(--_border);
    border-radius: 999px;
    padding: 0 6px;
  }
  agent-model-panel .pull {
    display: flex;
    flex-direction: column;
    gap: 4px;
    border-block-start: 1px solid var(--_border);
    padding-block-start: 8px;
  }
  agent-model-panel .pull label {
    font-size: 0.85em;
    color: var(--_muted);
  }
  agent-model-panel .row {
    display: flex;
    gap: 6px;
  }
  agent-model-panel .row input {
    flex: 1;
    min-inline-size: 0;
  }
  agent-model-panel .progress {
    display: flex;
    flex-direction: column;
    gap: 4px;
    font-size: 0.85em;
  }
  agent-model-panel progress {
    inline-size: 100%;
    accent-color: var(--_accent);
  }
  agent-model-panel button.get {
    align-self: flex-start;
  }
  agent-model-panel .check {
    border-block-start: 1px solid var(--_border);
    padding-block-start: 8px;
    display: flex;
    flex-direction: column;
    gap: 6px;
    align-items: flex-start;
  }
  agent-model-panel .report {
    display: flex;
    flex-direction: column;
    gap: 6px;
    font-size: 0.85em;
  }
  agent-model-panel .report li {
    display: flex;
    gap: 6px;
  }
  agent-model-panel .report .mark {
    border: 0;
    padding: 0;
    flex: none;
    inline-size: 1.2em;
    text-align: center;
    font-weight: 700;
  }
  agent-model-panel .report .pass .mark {
    color: var(--_success);
  }
  agent-model-panel .report .warn .mark {
    color: var(--_warning);
  }
  agent-model-panel .report .fail .mark {
    color: var(--_danger);
  }
  agent-model-panel .fix {
    color: var(--_muted);
    margin-block-start: 2px;
  }
  agent-model-panel .small {
    font-size: 0.8em;
    margin: 0;
  }
  agent-model-panel .missing {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px 12px;
  }
  agent-model-panel .error {
    color: var(--_danger);
    margin: 0;
  }
`;
