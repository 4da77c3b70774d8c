// The libraries a chat page needs besides open-agent (markdown, sanitiser, Lit), bundled
// alone: the part of the chat-page budget the runtime and the element cannot shrink.
export { marked } from 'marked';
export { default as DOMPurify } from 'dompurify';
export { LitElement, html, css, nothing } from 'lit';
export { repeat } from 'lit/directives/repeat.js';
export { guard } from 'lit/directives/guard.js';
