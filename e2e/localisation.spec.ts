import { expect, test } from '@playwright/test';
import { DemoPage } from './demo-page.js';
import { enqueue, resetServer } from './fake-server.js';

test.beforeEach(async () => {
  await resetServer();
});

// Arabic: a second language and a right-to-left page at once.
const arabic = {
  Message: 'الرسالة',
  'Message the agent…': 'اكتب رسالة إلى الوكيل…',
  Send: 'إرسال',
  Stop: 'إيقاف',
  Regenerate: 'إعادة التوليد',
  'Attach images': 'إرفاق صور',
  'Remove image {n}': 'إزالة الصورة {n}',
  'Image {n}': 'الصورة {n}',
  'New chat': 'محادثة جديدة',
  Conversations: 'المحادثات',
  Conversation: 'المحادثة',
  You: 'أنت',
  Assistant: 'المساعد',
  'Tool call {name}: {status}': 'استدعاء الأداة {name}: {status}',
  Done: 'تم',
  Result: 'النتيجة',
  '{n} characters': '{n} حرفًا',
  Arguments: 'المعطيات',
  'No saved conversations yet.': 'لا توجد محادثات محفوظة بعد.',
  '{n} messages': '{n} رسائل',
  Import: 'استيراد',
  // The row under a message, the answer's own controls
  Edit: 'تعديل',
  'Edit this message': 'تعديل هذه الرسالة',
  Copy: 'نسخ',
  'Copy the answer': 'نسخ الإجابة',
  Copied: 'تم النسخ',
  'Copy failed': 'تعذّر النسخ',
  Versions: 'الإصدارات',
  'Previous version': 'الإصدار السابق',
  'Next version': 'الإصدار التالي',
  '{active} / {count}': '{active} من {count}',
  'Copy {language} code': 'نسخ شيفرة {language}',
  'Image not loaded: {alt}': 'لم تُحمَّل الصورة: {alt}',
  'Remote images are blocked: they can leak the conversation to another site':
    'الصور البعيدة محجوبة',
};

test('the chat in Arabic on a right-to-left page: every label replaced, laid out mirrored', async ({
  page,
  context,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const demo = new DemoPage(page);
  await demo.open({ conversation: `e2e-rtl-${Math.random().toString(36).slice(2)}` });
  await page.evaluate((strings) => {
    document.documentElement.lang = 'ar';
    document.documentElement.dir = 'rtl';
    const chat = document.querySelector('agent-chat') as HTMLElement & {
      strings?: unknown;
      sidebarOpen?: boolean;
    };
    chat.strings = strings;
    chat.sidebarOpen = true;
  }, arabic);
  const input = demo.chat.getByRole('textbox', { name: 'الرسالة' });
  await expect(input).toHaveAttribute('placeholder', 'اكتب رسالة إلى الوكيل…');
  await enqueue(
    { toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }] },
    {
      text: 'الجواب **42**.\n\n```js\nconsole.log(6 * 7);\n```\n\n![قطة](https://example.com/cat.png)',
    },
  );
  await input.fill('كم حاصل ضرب ٦ في ٧؟');
  await input.press('Enter');
  await expect(demo.assistant()).toContainText('42');
  await expect(demo.chat.locator('[part~="send-button"]')).toHaveText('إرسال');
  await expect(demo.chat.getByRole('button', { name: 'إرفاق صور' })).toBeAttached();
  await expect(demo.chat.getByRole('log', { name: 'المحادثة' })).toBeVisible();
  await expect(
    demo.chat.getByRole('region', { name: /استدعاء الأداة calculator: تم/ }),
  ).toBeVisible();
  await expect(demo.chat.getByRole('complementary', { name: 'المحادثات' })).toContainText('رسائل');

  // The answer's own texts: its code block's Copy, the blocked image, the row under each message.
  await expect(demo.log.getByRole('button', { name: 'نسخ شيفرة js' })).toHaveText('نسخ');
  await expect(demo.log.locator('[part~="blocked-image"]')).toHaveText('لم تُحمَّل الصورة: قطة');
  await expect(demo.log.getByRole('button', { name: 'تعديل هذه الرسالة' })).toHaveText('تعديل');
  const copyAnswer = demo.log.getByRole('button', { name: 'نسخ الإجابة' });
  await expect(copyAnswer).toHaveText('نسخ');
  await copyAnswer.click();
  await expect(demo.log.locator('[part~="copy-answer-button"]')).toHaveText('تم النسخ');
  await demo.idle();
  // A second version of the answer: the switcher's labels and position.
  await enqueue({ text: 'الجواب مرة أخرى: **42**.' });
  await demo.chat.getByRole('button', { name: 'إعادة التوليد' }).click();
  await expect(demo.assistant()).toContainText('مرة أخرى');
  const versions = demo.log.getByRole('group', { name: 'الإصدارات' });
  await expect(versions.locator('[part~="branch-position"]')).toHaveText(/^(2|٢) من (2|٢)$/);
  await expect(versions.getByRole('button', { name: 'الإصدار السابق' })).toBeEnabled();
  await expect(versions.getByRole('button', { name: 'الإصدار التالي' })).toBeDisabled();
  await versions.getByRole('button', { name: 'الإصدار السابق' }).click();
  await expect(versions.locator('[part~="branch-position"]')).toHaveText(/^(1|١) من (2|٢)$/);

  // Mirrored: the user's bubble sits at the left edge of the log, the side list at the right.
  const bubble = await demo.log.locator('.bubble').first().boundingBox();
  const log = await demo.log.boundingBox();
  const sidebar = await demo.chat.locator('aside').boundingBox();
  expect(bubble && log && bubble.x - log.x).toBeLessThan(40);
  expect(sidebar && log && sidebar.x).toBeGreaterThan(log?.x ?? 0);

  await page.screenshot({ path: testInfo.outputPath('rtl-arabic.png') });
  await page.screenshot({ path: 'test-results/rtl-arabic.png' });
});
