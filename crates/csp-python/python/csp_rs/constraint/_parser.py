"""String constraints (`"a*2 == b"`, `"50 <= x * y < 100"`, `"abs(a - b) != 3"`):
parsed with `ast` into engine constraints; what the engine cannot express is
evaluated in Python."""

from __future__ import annotations

import ast
import builtins
import re
from functools import lru_cache
from typing import Any, Dict, FrozenSet, List, Tuple

from .._expr import And, Or, as_expr


class Unsupported(Exception):
    """The expression needs Python to evaluate it."""


_CMP = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">="}


def _translate(node: ast.AST, env: Dict[str, Any]) -> Any:
    """The expression as csp_rs expressions and constraints over `env`'s variables."""
    if isinstance(node, ast.Compare):
        parts = []
        left = _translate(node.left, env)
        for op, comp in zip(node.ops, node.comparators):
            if type(op) not in _CMP:
                raise Unsupported
            right = _translate(comp, env)
            parts.append(as_expr(left)._rel(right, _CMP[type(op)]))
            left = right
        return parts[0] if len(parts) == 1 else And(parts)
    if isinstance(node, ast.BoolOp):
        values = [_translate(v, env) for v in node.values]
        if isinstance(node.op, ast.And):
            return And(values)
        return Or(values)
    if isinstance(node, ast.UnaryOp):
        operand = _translate(node.operand, env)
        if isinstance(node.op, ast.USub):
            return -as_expr(operand)
        if isinstance(node.op, ast.UAdd):
            return as_expr(operand)
        if isinstance(node.op, ast.Not) and not isinstance(operand, int):
            return ~operand
        raise Unsupported
    if isinstance(node, ast.BinOp):
        a, b = _translate(node.left, env), _translate(node.right, env)
        if isinstance(node.op, ast.Add):
            return as_expr(a) + b
        if isinstance(node.op, ast.Sub):
            return as_expr(a) - b
        if isinstance(node.op, ast.Mult):
            return as_expr(a) * b
        raise Unsupported
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Name) and node.func.id == "abs" and "abs" not in env \
                and len(node.args) == 1 and not node.keywords:
            return abs(as_expr(_translate(node.args[0], env)))
        raise Unsupported
    if isinstance(node, ast.Constant):
        if isinstance(node.value, int) and not isinstance(node.value, bool):
            return node.value
        raise Unsupported
    if isinstance(node, ast.Name):
        if node.id in env:
            return env[node.id]
        raise Unsupported
    raise Unsupported


_IDENTIFIER = re.compile(r"(?!\d)\w+")


@lru_cache(maxsize=4096)
def _parse(text: str) -> Tuple[ast.expr, FrozenSet[str]]:
    """The expression's tree (never modified) and the identifiers in its text
    (a superset of its names: one inside a string literal is harmless, as the
    scope only decides which values the constraint receives)."""
    tree = ast.parse(text, mode="eval").body
    return tree, frozenset(_IDENTIFIER.findall(text))


def names(expression: str, position: Dict[Any, int]) -> List[Any]:
    """The problem's variables the expression mentions, in problem order
    (`position`: each variable's place in the problem)."""
    used = _parse(expression.strip())[1]
    return sorted((v for v in used if v in position), key=position.__getitem__)


def _not_equal_pair(tree: ast.expr, env: Dict[str, Any]) -> Any:
    """`abs(a - b) != k` or `a != b` as `(a, b, k)` (k = 0 for the second), else None:
    python-constraint's N-Queens form, posted without building expressions."""
    if not (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and isinstance(tree.ops[0], ast.NotEq)):
        return None
    left, right = tree.left, tree.comparators[0]
    if isinstance(left, ast.Name) and isinstance(right, ast.Name) and left.id in env and right.id in env:
        return env[left.id], env[right.id], 0
    if (isinstance(left, ast.Call) and isinstance(left.func, ast.Name) and left.func.id == "abs"
            and "abs" not in env and len(left.args) == 1 and not left.keywords
            and isinstance(left.args[0], ast.BinOp) and isinstance(left.args[0].op, ast.Sub)
            and isinstance(left.args[0].left, ast.Name) and isinstance(left.args[0].right, ast.Name)
            and left.args[0].left.id in env and left.args[0].right.id in env
            and isinstance(right, ast.Constant) and type(right.value) is int):
        return env[left.args[0].left.id], env[left.args[0].right.id], right.value
    return None


def post(b: Any, expression: str, position: Dict[Any, int]) -> None:
    """Posts `expression` through the builder `b`."""
    text = expression.strip()
    tree = _parse(text)[0]
    scope = names(text, position)
    if not scope:
        raise ValueError(f"constraint {expression!r} names none of the problem's variables")
    if b.numeric(scope):
        env = dict(zip(scope, b.vars(scope)))
        pair = _not_equal_pair(tree, env)
        if pair is not None:
            x, y, k = pair
            if k >= 0:
                # |x - y| != k: x != y + k and x != y - k
                native = b.model._native
                native.not_equal(x.index, y.index, k)
                if k != 0:
                    native.not_equal(x.index, y.index, -k)
            return
        env = dict(zip(scope, b.vars(scope)))
        try:
            b.model.add(_translate(tree, env))
            return
        except Unsupported:
            pass
    elif (isinstance(tree, ast.Compare) and len(tree.ops) == 1 and type(tree.ops[0]) in (ast.Eq, ast.NotEq)
          and isinstance(tree.left, ast.Name) and isinstance(tree.comparators[0], ast.Name)
          and tree.left.id in scope and tree.comparators[0].id in scope):
        # Equality of arbitrary values is equality of their codes.
        x, y = b.vars([tree.left.id, tree.comparators[0].id])
        b.model.add(x == y if isinstance(tree.ops[0], ast.Eq) else x != y)
        return
    code = compile(text, "<constraint>", "eval")
    glob = {"__builtins__": builtins}

    def check(*vals: Any) -> Any:
        return eval(code, glob, dict(zip(scope, vals)))  # noqa: S307 - the user's own expression

    b.python(scope, check)
