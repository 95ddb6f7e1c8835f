"""n8n's static expression checks: the ``.constructor`` ban and the property names no expression may access.

n8n refuses, before running it, an expression whose text contains ``.constructor`` ("Expression contains invalid
constructor function call"), and one that names an unsafe property statically, ``x.__proto__`` or
``x['prototype']`` ("Cannot access "__proto__" due to security concerns"). The names are n8n's
``unsafeObjectProperties`` (packages/workflow/src/utils.ts).
"""

from __future__ import annotations

import re

from weft.expressions.extend import mask_code

UNSAFE_PROPERTIES = frozenset(
    """
    __proto__ prototype constructor getPrototypeOf setPrototypeOf getOwnPropertyDescriptor getOwnPropertyDescriptors
    defineProperty defineProperties mainModule binding _linkedBinding _load prepareStackTrace __lookupGetter__
    __lookupSetter__ __defineGetter__ __defineSetter__ caller callee arguments getBuiltinModule dlopen execve
    loadEnvFile
    """.split()
)
_CONSTRUCTOR = re.compile(r"\.\s*constructor")
_STATIC = re.compile(r"(?<!\.)\.\s*([A-Za-z_$][\w$]*)")
_COMPUTED = re.compile(r"\[\s*(['\"])")


def blocked_reason(code: str) -> str | None:
    """n8n's message when the code of one ``{{ }}`` segment must not run, else None."""
    masked = mask_code(code)
    for match in _STATIC.finditer(masked):
        if match.group(1) in UNSAFE_PROPERTIES:
            return f'Cannot access "{match.group(1)}" due to security concerns'
    for match in _COMPUTED.finditer(masked):
        quote = match.group(1)
        start = match.end()
        end = masked.find(quote, start)
        if end > 0 and re.match(r"\s*\]", masked[end + 1 :]) and code[start:end] in UNSAFE_PROPERTIES:
            return f'Cannot access "{code[start:end]}" due to security concerns'
    return None


def constructor_call(text: str) -> bool:
    """Whether the whole parameter value mentions ``.constructor`` (n8n checks the raw text, strings included)."""
    return _CONSTRUCTOR.search(text) is not None
