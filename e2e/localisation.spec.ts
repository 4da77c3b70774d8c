import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

// Arabic: a second language and a right-to-left page at once.
const arabic = {
  'Message': 'الرسالة',
  'Message the agent…': 'اكتب رسالة إلى الوكيل…',
  'Send': 'إرسال',
  'Stop': 'إيقاف',
  'Regenerate': 'إعادة التوليد',
  'Attach images': 'إرفاق صور',
  'Remove image {n}': 'إزالة الصورة {n}',
  'Image {n}': 'الصورة {n}',
  'New chat': 'محادثة جديدة',
  'Conversations': 'المحادثات',
  'Conversation': 'المحادثة',
  'You': 'أنت',
  'Assistant': 'المساعد',
  'Tool call {name}: {status}': 'استدعاء الأداة {name}: {status}',
  'Done': 'تم',
  'Result': 'النتيجة',
  '{n} characters': '{n} حرفًا',
  'Arguments': 'المعطيات',
  'No saved conversations yet.': 'لا توجد محادثات محفوظة بعد.',
  '{n} messages': '{n} رسائل',
  'Import': 'استيراد',
};

test('the chat in Arabic on a right-to-left page: every label replaced, laid out mirrored', async ({ page }, testInfo) => {
  const demo = new DemoPage(page);
  await demo.open({ conversation: `e2e-rtl-${Math.random().toString(36).slice(2)}` });
  await page.evaluate((strings) => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const chat = document.querySelector('agent-chat') as HTMLElement & { strings?: unknown; sidebarOpen?: boolean };
    chat.strings = strings;
    chat.sidebarOpen = true;
  }, arabic);
  const input = demo.chat.getByRole('textbox', { name: 'الرسالة' });
  await expect(input).toHaveAttribute('placeholder', 'اكتب رسالة إلى الوكيل…');
  await enqueue(
    { toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }] },
    { text: 'الجواب **42**.' },
  );
  await input.fill('كم حاصل ضرب ٦ في ٧؟');
  await input.press('Enter');
  await expect(demo.assistant()).toContainText('42');
  await expect(demo.chat.locator('[part~="send-button"]')).toHaveText('إرسال');
  await expect(demo.chat.getByRole('button', { name: 'إرفاق صور' })).toBeAttached();
  await expect(demo.chat.getByRole('log', { name: 'المحادثة' })).toBeVisible();
  await expect(demo.chat.getByRole('region', { name: /استدعاء الأداة calculator: تم/ })).toBeVisible();
  await expect(demo.chat.getByRole('complementary', { name: 'المحادثات' })).toContainText('رسائل');

  // Mirrored: the user's bubble sits at the left edge of the log, the side list at the right.
  const bubble = await demo.log.locator('.bubble').first().boundingBox();
  const log = await demo.log.boundingBox();
  const sidebar = await demo.chat.locator('aside').boundingBox();
  expect(bubble && log && bubble.x - log.x).toBeLessThan(40);
  expect(sidebar && log && sidebar.x).toBeGreaterThan(log?.x ?? 0);

  await page.screenshot({ path: testInfo.outputPath('rtl-arabic.png') });
  await page.screenshot({ path: 'test-results/rtl-arabic.png' });
});
