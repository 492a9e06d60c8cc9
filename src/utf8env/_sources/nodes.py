"""What differs in Python's ast between the versions fix runs on (3.6-3.15): end
positions and ast.Constant (3.8+), and the value of a literal in either."""
import ast
import sys

HAS_END = sys.version_info >= (3, 8)      # end positions; literals are ast.Constant


def literal(node):
    """The value of a str/bytes/number/bool/None literal node, or raise ValueError."""
    if isinstance(node, ast.Constant if HAS_END else (ast.Str, ast.Bytes, ast.Num,
                                                      ast.NameConstant)):
        return node.value if HAS_END else getattr(node, "s", getattr(node, "n", getattr(
            node, "value", None)))
    raise ValueError
