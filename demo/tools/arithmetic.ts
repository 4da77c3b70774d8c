/**
 * Evaluates an arithmetic expression without `eval`: numbers, + - * / % ^ (power),
 * parentheses, unary minus, `pi`, `e`, and sqrt/abs/round/floor/ceil/ln/log/sin/cos/tan.
 * @throws Error saying what is wrong and where.
 */
export function evaluateArithmetic(expression: string): number {
  const tokens =
    expression.match(/\d+(?:\.\d+)?(?:e[+-]?\d+)?|\.\d+|[a-z]+|\*\*|[-+*/%^(),×÷]|\S/gi) ?? [];
  let index = 0;
  const peek = () => tokens[index];
  const take = () => tokens[index++];
  const expect = (token: string) => {
    if (take() !== token)
      throw new Error(`Expected "${token}" at token ${index} of "${expression}"`);
  };

  const FUNCTIONS: Record<string, (value: number) => number> = {
    sqrt: Math.sqrt,
    abs: Math.abs,
    round: Math.round,
    floor: Math.floor,
    ceil: Math.ceil,
    ln: Math.log,
    log: Math.log10,
    sin: Math.sin,
    cos: Math.cos,
    tan: Math.tan,
  };

  function sum(): number {
    let value = product();
    while (peek() === '+' || peek() === '-')
      value = take() === '+' ? value + product() : value - product();
    return value;
  }
  function product(): number {
    let value = power();
    for (
      let op = peek();
      op === '*' || op === '/' || op === '%' || op === '×' || op === '÷';
      op = peek()
    ) {
      take();
      const right = power();
      value = op === '*' || op === '×' ? value * right : op === '%' ? value % right : value / right;
    }
    return value;
  }
  function power(): number {
    const base = unary();
    if (peek() === '^' || peek() === '**') {
      take();
      return base ** power();
    }
    return base;
  }
  function unary(): number {
    if (peek() === '-') {
      take();
      return -unary();
    }
    if (peek() === '+') take();
    return atom();
  }
  function atom(): number {
    const token = take();
    if (token === undefined) throw new Error(`"${expression}" ends too early`);
    if (token === '(') {
      const value = sum();
      expect(')');
      return value;
    }
    if (/^[\d.]/.test(token)) return Number(token);
    const name = token.toLowerCase();
    if (name === 'pi') return Math.PI;
    if (name === 'e') return Math.E;
    const fn = FUNCTIONS[name];
    if (fn) {
      expect('(');
      const value = sum();
      expect(')');
      return fn(value);
    }
    throw new Error(`Unexpected "${token}" in "${expression}"`);
  }

  const value = sum();
  if (index < tokens.length) throw new Error(`Unexpected "${tokens[index]}" in "${expression}"`);
  return value;
}
