/** One way models mark reasoning in their text. */
export interface ReasoningTags {
  open: string;
  close: string;
  /**
   * What a `close` with no `open` before it means: `'reasoning-before'` — the template put
   * the opener in the prompt, so the text so far was reasoning (`</think>`); `'hide'` — a
   * stray special token, dropped (Gemma 4's `<channel|>`).
   */
  lone: 'reasoning-before' | 'hide';
  /**
   * Call markers that end this block when they open inside it: the model started calling
   * without closing its thought (vLLM's `gemma4`, `glm47_moe` and `minimax_m2` parsers go
   * from reasoning to a call on them). From the marker on the thought is held: the block's
   * closing tag still coming makes all of it reasoning (a thought that mentions the tag);
   * the stream ending makes the marker and what follows the answer, read for calls.
   */
  callsEnd?: readonly string[];
}

/**
 * Every reasoning block a server may leave in `content`, checked against the reasoning
 * parsers of vLLM (`deepseek_r1`, `qwen3`, `seed_oss`, `mistral`, `gemma4`), llama.cpp
 * (`common/chat.cpp`) and sglang. No tag is a prefix of another.
 */
export const REASONING_TAGS: readonly ReasoningTags[] = [
  // DeepSeek R1 / V3.1, Qwen3, QwQ, GLM, MiniMax M2, Kimi K2 Thinking, LFM2, Phi-4 reasoning.
  {
    open: '<think>',
    close: '</think>',
    lone: 'reasoning-before',
    // DeepSeek V3.2 / V4 call from inside thinking too (llama.cpp `common/parsers/deepseek.cpp`
    // ends the reasoning at the DSML block).
    callsEnd: [
      '<tool_call>',
      '<minimax:tool_call>',
      '<｜DSML｜function_calls>',
      '<｜DSML｜tool_calls>',
    ],
  },
  // ByteDance Seed-OSS (`<seed:cot_budget_reflect>` notes inside stay reasoning).
  { open: '<seed:think>', close: '</seed:think>', lone: 'reasoning-before' },
  // Magistral, Mistral Small 3.2+ and Devstral with reasoning.
  { open: '[THINK]', close: '[/THINK]', lone: 'reasoning-before' },
  // Gemma 4: `<|channel>thought\n…<channel|>`; an empty block or a stray `<channel|>` occurs.
  { open: '<|channel>thought', close: '<channel|>', lone: 'hide', callsEnd: ['<|tool_call>'] },
  // Swiss AI Apertus.
  { open: '<|inner_prefix|>', close: '<|inner_suffix|>', lone: 'reasoning-before' },
];

/** Markers of a tool call that end reasoning a model started mid-thought without closing it. */
export const CALL_MARKERS_ENDING_REASONING: readonly string[] = [
  // Qwen3.5 / 3.6 may open `<tool_call>` before `</think>` (vLLM's qwen3 reasoning parser).
  '<tool_call>',
  '<minimax:tool_call>',
  '<｜tool▁calls▁begin｜>',
  // DeepSeek V3.2 / V4 may write calls inside thinking.
  '<｜DSML｜function_calls>',
  '<｜DSML｜tool_calls>',
];

/**
 * How many characters of an answer that shows no opening tag are held as possible reasoning
 * when the model starts mid-thought: a `</think>` starting within them makes them reasoning;
 * past them the text is released as an answer (a later `</think>` still moves it, through
 * `text_was_reasoning`). 512 characters ≈ 128 tokens: 2.6 s at 50 tokens/s before a tag-less
 * answer starts to show.
 */
export const MID_THOUGHT_HOLD = 512;
