"""A safe calculator: arithmetic expressions evaluated over Python's ``ast``, never ``eval``.

n8n's Calculator tool (LangChain's ``Calculator``) evaluates with ``expr-eval`` in JavaScript numbers and
returns ``result.toString()``. This evaluator keeps those semantics: every value is a double, ``^`` is power,
overflow gives ``Infinity`` and division by zero ``Infinity``/``NaN`` (so ``9^9^9`` cannot hang), and results
are formatted as JavaScript prints numbers (``83810205``, ``2.5``, ``1e+21``, ``0.30000000000000004``).
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable

from weft.errors import WeftError
from weft.workflow.jsjson import js_number_string

_FUNCTIONS: dict[str, Callable[..., float]] = {
    "sqrt": math.sqrt,
    "cbrt": lambda x: math.copysign(abs(x) ** (1 / 3), x),
    "sin": math.sin,
    "cos": math.cos,
    "tan": math.tan,
    "asin": math.asin,
    "acos": math.acos,
    "atan": math.atan,
    "sinh": math.sinh,
    "cosh": math.cosh,
    "tanh": math.tanh,
    "log": math.log,
    "ln": math.log,
    "log10": math.log10,
    "log2": math.log2,
    "exp": math.exp,
    "abs": abs,
    "round": lambda x: float(math.floor(x + 0.5)),
    "floor": math.floor,
    "ceil": math.ceil,
    "trunc": math.trunc,
    "sign": lambda x: float((x > 0) - (x < 0)),
    "min": min,
    "max": max,
    "pow": lambda x, y: _power(x, y),
    "hypot": math.hypot,
    "atan2": math.atan2,
}
_CONSTANTS: dict[str, float] = {"pi": math.pi, "PI": math.pi, "e": math.e, "E": math.e}

#: Longest expression accepted (a bound on parse time and nesting).
MAX_EXPRESSION_LENGTH = 2000


class CalculatorError(WeftError, ValueError):
    """The expression is not one the calculator can evaluate."""


def evaluate_math(expression: str) -> float:
    """The value of ``expression`` as a double; :class:`CalculatorError` for anything but arithmetic."""
    text = expression.strip()
    if not text:
        raise CalculatorError("The expression is empty; give a math expression such as '2 + 2'.")
    if len(text) > MAX_EXPRESSION_LENGTH:
        raise CalculatorError(f"The expression is longer than {MAX_EXPRESSION_LENGTH} characters.")
    try:
        tree = ast.parse(text.replace("^", "**"), mode="eval")
    except SyntaxError as exc:
        raise CalculatorError(f"Cannot parse {expression!r} as a math expression ({exc.msg}).") from None
    try:
        return _eval(tree.body)
    except RecursionError:
        raise CalculatorError("The expression is nested too deeply.") from None


#: A run of arithmetic inside prose: starts with a number (or an opening parenthesis), holds a binary operator.
_ARITHMETIC_RUN = re.compile(r"[(\d][\d\s.()]*(?:(?:\*\*|//|[-+*/^%])[\s(]*-?[\d.][\d\s.()]*)+")


def arithmetic_in(text: str) -> str | None:
    """The one run of arithmetic in ``text`` (``"What is 6 * 7?"`` → ``"6 * 7"``), or ``None`` if not exactly one."""
    runs = [m.group().strip() for m in _ARITHMETIC_RUN.finditer(text)]
    return runs[0] if len(runs) == 1 and runs[0] != text.strip() else None


def evaluate_lenient(expression: str) -> float:
    """Like :func:`evaluate_math`; when the text is not an expression but holds exactly one arithmetic run, that
    run is evaluated (small models often write ``"What is 6 * 7?"``). Otherwise the original error is raised."""
    try:
        return evaluate_math(expression)
    except CalculatorError:
        run = arithmetic_in(expression)
        if run is None:
            raise
        try:
            return evaluate_math(run)
        except CalculatorError:
            pass
        raise


def _eval(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        try:
            return float(node.value)
        except OverflowError:
            return math.inf
    if isinstance(node, ast.Name):
        if node.id in _CONSTANTS:
            return _CONSTANTS[node.id]
        raise CalculatorError(f"Unknown name {node.id!r}; only numbers, operators, functions and pi/e are allowed.")
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _eval(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp):
        return _binary(node.op, _eval(node.left), _eval(node.right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.keywords:
        if node.func.id not in _FUNCTIONS:
            known = ", ".join(sorted(_FUNCTIONS))
            raise CalculatorError(f"Unknown function {node.func.id!r}; available: {known}.")
        return _call(node.func.id, [_eval(a) for a in node.args])
    raise CalculatorError(f"Unsupported syntax {ast.unparse(node)!r}; use numbers, + - * / ^ % and functions.")


def _binary(op: ast.operator, left: float, right: float) -> float:
    if isinstance(op, ast.Add):
        return left + right
    if isinstance(op, ast.Sub):
        return left - right
    if isinstance(op, ast.Mult):
        return left * right
    if isinstance(op, ast.Div):
        return _divide(left, right)
    if isinstance(op, ast.FloorDiv):
        quotient = _divide(left, right)
        return float(math.floor(quotient)) if math.isfinite(quotient) else quotient
    if isinstance(op, ast.Mod):
        return math.fmod(left, right) if right != 0 and math.isfinite(left) else math.nan
    if isinstance(op, ast.Pow):
        return _power(left, right)
    raise CalculatorError(f"Unsupported operator {type(op).__name__}; use + - * / ^ % //.")


def _divide(left: float, right: float) -> float:
    if right != 0:
        return left / right
    if left == 0 or math.isnan(left):
        return math.nan
    return math.copysign(math.inf, left) * math.copysign(1, right)


def _power(base: float, exponent: float) -> float:
    try:
        result = math.pow(base, exponent)
    except OverflowError:
        return math.inf if base > 0 or exponent % 2 == 0 else -math.inf
    except ValueError:
        return math.nan
    return result


def _call(name: str, args: list[float]) -> float:
    function = _FUNCTIONS[name]
    try:
        return float(function(*args))
    except TypeError:
        raise CalculatorError(f"Wrong number of arguments for {name}().") from None
    except (ValueError, OverflowError):
        return math.nan if name != "exp" else math.inf


def js_number(value: float) -> str:
    """``value`` as JavaScript's ``Number.prototype.toString`` writes it."""
    return js_number_string(value)


__all__ = [
    "MAX_EXPRESSION_LENGTH",
    "CalculatorError",
    "arithmetic_in",
    "evaluate_lenient",
    "evaluate_math",
    "js_number",
]
