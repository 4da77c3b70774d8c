type Candidate = { order: number; value: Record<string, unknown> };

/**
 * What the output tools saw during one attempt: the candidate outputs, whether the output
 * was finalised, and whether `submit` came before any output.
 *
 * "Last" means last in the model's call order, not in completion order: the calls of one
 * response run concurrently, so {@link OutputRecorder.noteCall} numbers them as the
 * `PreToolUse` hooks see them (strictly in call order, before anything runs).
 */
export class OutputRecorder {
  readonly #reflection: boolean;
  #order = new Map<string, number>();
  #nextOrder = 0;
  #candidates: Candidate[] = [];
  #submitted: Candidate | undefined;
  #submittedEarly = false;

  /** With `reflection`, only `submit` finalises; without, the first output call does. */
  constructor(options: { reflection: boolean }) {
    this.#reflection = options.reflection;
  }

  /** Forgets the previous attempt: a new attempt needs a new output. */
  startAttempt(): void {
    this.#order.clear();
    this.#candidates = [];
    this.#submitted = undefined;
    this.#submittedEarly = false;
  }

  /** Gives a call its place in the model's call order. */
  noteCall(toolUseId: string): void {
    this.#order.set(toolUseId, this.#nextOrder++);
  }

  /** Records an output-tool call; a later call (in call order) replaces an earlier one. */
  record(toolUseId: string, value: Record<string, unknown>): void {
    this.#candidates.push({ order: this.#orderOf(toolUseId), value });
    this.#submittedEarly = false;
  }

  /**
   * Finalises the last output recorded before this `submit` call.
   * @returns false when there is none yet (remembered: the attempt may end that way).
   */
  submit(toolUseId: string): boolean {
    const candidate = this.#last(this.#orderOf(toolUseId));
    if (!candidate) {
      this.#submittedEarly = this.#submitted === undefined;
      return false;
    }
    this.#submitted ??= candidate;
    return true;
  }

  /** The finalised output of this attempt, if any. */
  get output(): Record<string, unknown> | undefined {
    return (this.#reflection ? this.#submitted : this.#last(Number.POSITIVE_INFINITY))?.value;
  }

  /** The model's last word on its output was a `submit` with nothing to submit. */
  get submittedEarly(): boolean {
    return this.#submittedEarly;
  }

  /** The candidate latest in call order among those called before `order`. */
  #last(order: number): Candidate | undefined {
    let last: Candidate | undefined;
    for (const candidate of this.#candidates) {
      if (candidate.order < order && (last === undefined || candidate.order > last.order))
        last = candidate;
    }
    return last;
  }

  #orderOf(toolUseId: string): number {
    // Every executed call passed the PreToolUse hook; the fallback keeps order if one did not.
    return this.#order.get(toolUseId) ?? this.#nextOrder++;
  }
}
