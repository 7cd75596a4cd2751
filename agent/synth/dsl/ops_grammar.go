package dsl

// Operators over small grammars: a string read as an arithmetic expression
// of integers. The grammar is restricted on purpose, so that the Go
// evaluation and the emitted Python helper agree exactly: ASCII digits,
// the binary operators + - *, unary signs, parentheses and spaces; any
// other character, an operator without its operand or an unclosed
// parenthesis fails (the helper raises ValueError). Two readings: with
// the usual precedence (* before + and -) and strictly left to right, as
// a calculator that applies each operator as it is typed.

// grammarOps are the expression evaluators, operators of whole programs
// only (a lambda body reads no expressions). They cost two: on a string of
// digits they agree with int(), the simpler reading a sketch's hole (a
// chunk "a3", a token) must find first.
func grammarOps() []*Operator {
	return []*Operator{
		costs(2, op1("eval_expr", FamScalar, func(s string) (int64, bool) { return evalExpr(s, true) }, func(e *Emitter, a []Code) Code {
			e.helper("eval_expr", pyEvalExpr)
			return Call("eval_expr", a[0])
		})),
		costs(2, op1("eval_ltr", FamScalar, func(s string) (int64, bool) { return evalExpr(s, false) }, func(e *Emitter, a []Code) Code {
			e.helper("eval_left_to_right", pyEvalLTR)
			return Call("eval_left_to_right", a[0])
		})),
	}
}

// exprParser reads an expression; it fails (ok false) on a malformed one
// and on results beyond int64.
type exprParser struct {
	s     string
	i     int
	depth int
	prec  bool
	ok    bool
}

// maxExprDepth bounds the nesting of signs and parentheses (Python's
// recursion would fail far beyond it).
const maxExprDepth = 100

// evalExpr evaluates s with the usual precedence (prec) or left to right.
func evalExpr(s string, prec bool) (int64, bool) {
	p := &exprParser{s: s, prec: prec, ok: true}
	v := p.expr()
	p.space()
	if !p.ok || p.i != len(p.s) {
		return 0, false
	}
	return v, true
}

func (p *exprParser) space() {
	for p.i < len(p.s) && p.s[p.i] == ' ' {
		p.i++
	}
}

// peek returns the next character after spaces (0 at the end).
func (p *exprParser) peek() byte {
	p.space()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

// expr is a sum of terms (with precedence) or a chain of operands (left
// to right).
func (p *exprParser) expr() int64 {
	var acc int64
	if p.prec {
		acc = p.term()
	} else {
		acc = p.unary()
	}
	for p.ok {
		c := p.peek()
		if c != '+' && c != '-' && (p.prec || c != '*') {
			return acc
		}
		p.i++
		var v int64
		if p.prec {
			v = p.term()
		} else {
			v = p.unary()
		}
		acc = p.apply(c, acc, v)
	}
	return acc
}

// term is a product of operands.
func (p *exprParser) term() int64 {
	acc := p.unary()
	for p.ok && p.peek() == '*' {
		p.i++
		acc = p.apply('*', acc, p.unary())
	}
	return acc
}

func (p *exprParser) apply(op byte, a, b int64) int64 {
	var v int64
	good := p.ok
	switch op {
	case '+':
		v, good = AddI(a, b)
	case '-':
		v, good = SubI(a, b)
	case '*':
		v, good = MulI(a, b)
	}
	p.ok = p.ok && good
	return v
}

// unary is a signed operand: a number or a parenthesised expression.
func (p *exprParser) unary() int64 {
	if p.depth++; !p.ok || p.depth > maxExprDepth {
		p.ok = false
		return 0
	}
	defer func() { p.depth-- }()
	switch c := p.peek(); {
	case c == '-' || c == '+':
		p.i++
		v := p.unary()
		if c == '-' {
			v = p.apply('-', 0, v)
		}
		return v
	case c == '(':
		p.i++
		v := p.expr()
		if p.peek() != ')' {
			p.ok = false
			return 0
		}
		p.i++
		return v
	case c >= '0' && c <= '9':
		var v int64
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			v = p.apply('*', v, 10)
			v = p.apply('+', v, int64(p.s[p.i]-'0'))
			p.i++
		}
		return v
	}
	p.ok = false
	return 0
}

// The two expression evaluators' Python helpers differ only in how
// expr reads its operators: the tokenizer (pyExprPeek) and the operands
// (pyExprOperands) are one text, so that a fix reaches both.
const (
	pyEvalExpr = `
def eval_expr(s):
    # Integers, + - * with the usual precedence, signs, parentheses, spaces.
    pos = depth = 0
` + pyExprPeek + `
    def expr():
        nonlocal pos
        acc = term()
        while peek() in ("+", "-"):
            op = s[pos]
            pos += 1
            v = term()
            acc = acc + v if op == "+" else acc - v
        return acc

    def term():
        nonlocal pos
        acc = unary()
        while peek() == "*":
            pos += 1
            acc *= unary()
        return acc
` + pyExprOperands
	pyEvalLTR = `
def eval_left_to_right(s):
    # Integers and + - * applied left to right, signs, parentheses, spaces.
    pos = depth = 0
` + pyExprPeek + `
    def expr():
        nonlocal pos
        acc = unary()
        while peek() in ("+", "-", "*"):
            op = s[pos]
            pos += 1
            v = unary()
            acc = acc + v if op == "+" else acc - v if op == "-" else acc * v
        return acc
` + pyExprOperands
)

const pyExprPeek = `
    def peek():
        nonlocal pos
        while pos < len(s) and s[pos] == " ":
            pos += 1
        return s[pos] if pos < len(s) else ""
`

const pyExprOperands = `
    def unary():
        nonlocal depth
        depth += 1
        if depth > 100:
            raise ValueError("nested too deeply")
        v = operand()
        depth -= 1
        return v

    def operand():
        nonlocal pos
        c = peek()
        if c in ("+", "-"):
            pos += 1
            v = unary()
            return -v if c == "-" else v
        if c == "(":
            pos += 1
            v = expr()
            if peek() != ")":
                raise ValueError("expected ) at %d" % pos)
            pos += 1
            return v
        start = pos
        while pos < len(s) and s[pos] in "0123456789":
            pos += 1
        if pos == start:
            raise ValueError("expected a number at %d" % pos)
        return int(s[start:pos])

    v = expr()
    if peek() != "":
        raise ValueError("unexpected %r at %d" % (s[pos], pos))
    return v
`
