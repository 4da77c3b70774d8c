// The openai SDK measured the same way as our entries: what an app that streams with it ships.
// Like an app's main.ts it exports nothing and hands what it imports to the page.
import OpenAI from 'openai';

Object.assign(globalThis, { OpenAI });
