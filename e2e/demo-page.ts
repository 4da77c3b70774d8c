import { expect, type Locator, type Page } from '@playwright/test';
import { FAKE_BASE_URL } from './fake-server.js';

/** The demo page's chat, through the element's shadow DOM (Playwright locators pierce it). */
export class DemoPage {
  readonly chat: Locator;
  readonly input: Locator;
  readonly log: Locator;

  constructor(readonly page: Page) {
    this.chat = page.locator('agent-chat');
    this.input = this.chat.getByRole('textbox', { name: 'Message' });
    this.log = this.chat.getByRole('log');
  }

  /** Opens the demo on the fake server (or `source: 'demo'` for the offline model). */
  async open(params: Record<string, string> = {}): Promise<void> {
    const query = new URLSearchParams({
      baseURL: FAKE_BASE_URL,
      model: 'fake-model',
      retries: '0',
      approval: '',
      conversation: `e2e-${Math.random().toString(36).slice(2)}`,
      ...params,
    });
    await this.page.goto(`/?${query}`);
    await expect(this.input).toBeEnabled();
  }

  /** Types a prompt and presses Enter, once the previous run has ended. */
  async send(text: string): Promise<void> {
    await this.idle();
    await this.input.fill(text);
    await this.input.press('Enter');
  }

  /** The assistant messages, in order. */
  assistant(index = -1): Locator {
    const messages = this.log.locator('article.assistant');
    return index < 0 ? messages.last() : messages.nth(index);
  }

  toolCard(name: string): Locator {
    return this.log
      .locator('section.tool')
      .filter({ has: this.page.locator('.tool-name', { hasText: name }) });
  }

  /** Resolves once no run is streaming (the Send button is back). */
  async idle(): Promise<void> {
    await expect(this.chat.locator('[part~="send-button"]')).toBeVisible();
  }
}
