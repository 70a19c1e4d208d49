"""The `calc` module: `calc.evaluate`, safe arithmetic on an expression and named numbers.

No `eval`: the expression is parsed with `ast` (a well-kept parser, so no hand-written grammar)
and only a whitelist of node types is evaluated, in `decimal` so that money sums come out exact
(0.1 + 0.2 = 0.3). Size, depth, exponents and magnitudes are bounded.
"""

from __future__ import annotations

import ast
import decimal
import math
from collections.abc import Callable, Mapping
from decimal import Decimal
from typing import Any

from studio.platform.module import (
    JSON,
    CallContext,
    PlatformCall,
    PlatformError,
    PlatformModule,
    ResultLink,
    numeric,
)
from studio.platform.module import object_schema as obj

MAX_EXPRESSION = 256
MAX_NODES = 128
MAX_EXPONENT = 1000
MAX_ROUND_DIGITS = 12
_CONTEXT = decimal.Context(
    prec=28,
    rounding=decimal.ROUND_HALF_EVEN,
    Emax=9_999,
    Emin=-9_999,
    traps=[decimal.InvalidOperation, decimal.DivisionByZero, decimal.Overflow],
)


class CalcError(PlatformError):
    """The expression is not allowed or cannot be evaluated (one line, names the cause)."""

    def __init__(self, message: str):
        super().__init__(f"calc.evaluate: {message}")


def _round(args: list[Decimal]) -> Decimal:
    if len(args) not in (1, 2):
        raise CalcError("round takes a number and optional digits")
    digits = args[1] if len(args) == 2 else Decimal(0)
    if digits != digits.to_integral_value() or not 0 <= digits <= MAX_ROUND_DIGITS:
        raise CalcError(f"round digits must be a whole number 0..{MAX_ROUND_DIGITS}")
    # Half away from zero, as a calculator rounds money (Python's round is half-even).
    return args[0].quantize(Decimal(1).scaleb(-int(digits)), rounding=decimal.ROUND_HALF_UP)


def _one(name: str, fn: Callable[[Decimal], Decimal]) -> Callable[[list[Decimal]], Decimal]:
    def apply(args: list[Decimal]) -> Decimal:
        if len(args) != 1:
            raise CalcError(f"{name} takes exactly one number")
        return fn(args[0])

    return apply


def _sqrt(x: Decimal) -> Decimal:
    if x < 0:
        raise CalcError("sqrt of a negative number")
    return x.sqrt()


def _many(name: str, fn: Callable[[list[Decimal]], Decimal]) -> Callable[[list[Decimal]], Decimal]:
    def apply(args: list[Decimal]) -> Decimal:
        if not args:
            raise CalcError(f"{name} needs at least one number")
        return fn(args)

    return apply


FUNCTIONS: dict[str, Callable[[list[Decimal]], Decimal]] = {
    "round": _round,
    "min": _many("min", min),
    "max": _many("max", max),
    "abs": _one("abs", abs),
    "sqrt": _one("sqrt", _sqrt),
}


def _mod(a: Decimal, b: Decimal) -> Decimal:
    if b == 0:
        raise CalcError("division by zero")
    # Floored modulo (the result has the divisor's sign), as in most calculators and Python.
    return a - b * (a / b).to_integral_value(rounding=decimal.ROUND_FLOOR)


def _pow(a: Decimal, b: Decimal) -> Decimal:
    if abs(b) > MAX_EXPONENT:
        raise CalcError(f"exponent larger than {MAX_EXPONENT}")
    if a == 0 and b < 0:
        raise CalcError("division by zero")
    return a**b


def _div(a: Decimal, b: Decimal) -> Decimal:
    if b == 0:
        raise CalcError("division by zero")
    return a / b


BINARY: dict[type[ast.operator], Callable[[Decimal, Decimal], Decimal]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: _div,
    ast.Mod: _mod,
    ast.Pow: _pow,
}
SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Mod: "%", ast.Pow: "**"}


class _Evaluator:
    def __init__(self, variables: Mapping[str, Decimal]):
        self.variables = variables

    def eval(self, node: ast.AST) -> Decimal:
        if isinstance(node, ast.Expression):
            return self.eval(node.body)
        if isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise CalcError(f"{value!r} is not a number")
            return Decimal(str(value)) if isinstance(value, float) else Decimal(value)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            operand = self.eval(node.operand)
            return -operand if isinstance(node.op, ast.USub) else operand
        if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
            left, right = self.eval(node.left), self.eval(node.right)
            return BINARY[type(node.op)](left, right)
        if isinstance(node, ast.Name):
            if node.id in FUNCTIONS:
                raise CalcError(f"{node.id} is a function: call it as {node.id}(...)")
            if node.id not in self.variables:
                raise CalcError(f"unknown name {node.id!r}")
            return self.variables[node.id]
        if isinstance(node, ast.Call):
            if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
                raise CalcError("only round, min, max, abs and sqrt can be called")
            if node.keywords or any(isinstance(a, ast.Starred) for a in node.args):
                raise CalcError(f"{node.func.id} takes plain numbers only")
            return FUNCTIONS[node.func.id]([self.eval(a) for a in node.args])
        if isinstance(node, ast.BinOp):
            raise CalcError("only + - * / % ** are allowed")
        raise CalcError(f"{type(node).__name__.lower()} is not allowed in an expression")


def _number(value: Decimal) -> int | float:
    if value == value.to_integral_value() and abs(value) < 2**53:
        return int(value)
    out = float(value)
    if not math.isfinite(out):
        raise CalcError("result is too large")
    return out


def evaluate(expression: str, variables: Mapping[str, float] | None = None) -> int | float:
    """The value of `expression` (numbers, + - * / % **, parentheses, unary minus, round, min,
    max, abs, sqrt, and the named `variables`), or a `CalcError`."""
    if len(expression) > MAX_EXPRESSION:
        raise CalcError(f"expression longer than {MAX_EXPRESSION} characters")
    if not expression.strip():
        raise CalcError("expression is empty")
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except (SyntaxError, ValueError) as exc:
        raise CalcError(f"syntax error in {expression!r}") from exc
    if sum(1 for _ in ast.walk(tree)) > MAX_NODES:
        raise CalcError(f"expression has more than {MAX_NODES} parts")
    values: dict[str, Decimal] = {}
    for name, number in (variables or {}).items():
        if name in FUNCTIONS:
            raise CalcError(f"{name!r} is a function name, not a variable")
        if (
            isinstance(number, bool)
            or not isinstance(number, int | float)
            or not math.isfinite(number)
        ):
            raise CalcError(f"variable {name!r} must be a finite number")
        values[name] = Decimal(str(number)) if isinstance(number, float) else Decimal(number)
    try:
        with decimal.localcontext(_CONTEXT):
            return _number(+_Evaluator(values).eval(tree))
    except decimal.DivisionByZero as exc:
        raise CalcError("division by zero") from exc
    except decimal.Overflow as exc:
        raise CalcError("result is too large") from exc
    except decimal.InvalidOperation as exc:
        raise CalcError("invalid operation (e.g. a fractional power of a negative number)") from exc
    except RecursionError as exc:  # deeply nested parentheses
        raise CalcError("expression is nested too deeply") from exc


#: Named inputs an expression may use. Top-level arguments (not a nested object) because a
#: spec binds each argument separately: `{"a": {"state": "amount"}}`.
VARIABLES = ("a", "b", "c", "d", "e", "f")


async def _evaluate(args: JSON, context: CallContext) -> Any:
    variables = {name: args[name] for name in VARIABLES if name in args}
    return {"value": evaluate(args["expression"], variables)}


def module() -> PlatformModule:
    inputs: dict[str, JSON] = {name: numeric(f"Value of {name}") for name in VARIABLES}
    call = PlatformCall(
        name="evaluate",
        description=(
            "Evaluates arithmetic: numbers, + - * / % ** and parentheses, unary minus, "
            "round(x[, digits]), min, max, abs, sqrt, and the inputs a..f "
            "(e.g. expression 'a * (1 + c / 100) / b' with a, b, c bound to state)."
        ),
        args=obj(
            {
                "expression": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": MAX_EXPRESSION,
                    "description": "Expression",
                    "examples": ["a * (1 + c / 100) / b"],
                },
                **inputs,
            },
            required=["expression"],
        ),
        result=obj({"value": {"type": "number", "description": "Result"}}),
        handler=_evaluate,
        # The computed value often has a unit: offer converting it (a result link).
        links=(ResultLink("units.convert", "Convert the result", {"value": "/value"}),),
    )
    return PlatformModule(
        name="calc", description="Safe arithmetic (pure, offline).", calls={"evaluate": call}
    )
