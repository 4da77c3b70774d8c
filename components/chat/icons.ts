import { svg, type SVGTemplateResult } from 'lit';

/**
 * Inline SVG icons (stroke `currentColor`, 1em): emoji and rare symbols show as empty boxes
 * where no font has them (a Debian machine without an emoji font, for one). Decorative: the
 * buttons carrying them have their own labels.
 */
const icon = (paths: SVGTemplateResult): SVGTemplateResult =>
  svg`<svg class="svg-icon" viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${paths}</svg>`;

export const menuIcon = icon(svg`<path d="M4 6h16M4 12h16M4 18h16"/>`);
export const trashIcon = icon(svg`<path d="M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3"/>`);
export const renameIcon = icon(svg`<path d="M4 20h4L19 9l-4-4L4 16zM13 7l4 4"/>`);
export const exportIcon = icon(svg`<path d="M12 4v11M7 10l5 5 5-5M5 20h14"/>`);
export const downIcon = icon(svg`<path d="M12 5v14M6 13l6 6 6-6"/>`);
export const stopIcon = icon(
  svg`<rect x="6" y="6" width="12" height="12" rx="1" fill="currentColor"/>`,
);
