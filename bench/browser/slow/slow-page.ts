import '../../../components/index.js';

/** What one Send against the slow server showed, in ms after Send. */
export interface SlowTimes {
  /** The first frame whose answer place showed the waiting line. */
  firstWaitingMs: number | undefined;
  /** The waiting line's text at its last sighting before the answer. */
  lastWaitingText: string | undefined;
  /** The first frame showing text of the answer. */
  firstTokenMs: number | undefined;
  totalMs: number;
}

declare global {
  interface Window {
    slowBench?: { send(baseURL: string, prompt: string): Promise<SlowTimes> };
  }
}

window.slowBench = {
  async send(baseURL, prompt) {
    const chat = document.createElement('agent-chat');
    chat.model = 'fake-model';
    chat.baseUrl = baseURL;
    chat.options = { contextWindow: 32_768 }; // a served 32k window: no probe of the fake
    document.body.replaceChildren(chat);
    await chat.updateComplete;
    const root = chat.shadowRoot as ShadowRoot;
    const times: SlowTimes = {
      firstWaitingMs: undefined,
      lastWaitingText: undefined,
      firstTokenMs: undefined,
      totalMs: 0,
    };
    const started = performance.now();
    let running = true;
    // Looked at once per frame: what a person could have seen.
    const look = () => {
      const waiting = root.querySelector('[part="waiting"]')?.textContent?.trim();
      if (waiting) {
        times.firstWaitingMs ??= performance.now() - started;
        times.lastWaitingText = waiting;
      }
      const answer = root
        .querySelector('[part~="message-assistant"] .markdown')
        ?.textContent?.trim();
      if (answer) times.firstTokenMs ??= performance.now() - started;
      if (running) requestAnimationFrame(look);
    };
    requestAnimationFrame(look);
    await chat.send(prompt);
    running = false;
    // The answer's last paint may follow the end of the run by a frame.
    await chat.updateComplete;
    await new Promise<void>((resolve) =>
      requestAnimationFrame(() => {
        look();
        resolve();
      }),
    );
    times.totalMs = performance.now() - started;
    return times;
  },
};
