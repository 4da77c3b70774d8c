// The openai SDK measured the same way as our entries: what an app that streams with it ships.
export { default as OpenAI } from 'openai';
