"""JavaScript's number formatting (``toFixed``, ``toPrecision``, ``toExponential``) and SheetJS's "General" format
(``SSF_general``), which is how n8n's spreadsheet files (CSV, HTML, RTF) print numbers.

The JavaScript methods are computed on the double's exact decimal value, ties going to the larger digits (the
spec's "if there are two such n, pick the larger n"), so ``(2.5).toFixed(0)`` is ``"3"``.
"""

from __future__ import annotations

import math
import re
from decimal import ROUND_HALF_UP, Decimal

from weft.nodes.values import js_number_repr
from weft.workflow.jsjson import js_number_string

_LOG10E = 0.4342944819032518


def _scaled(value: float, exponent: int) -> int:
    """The integer ``n`` closest to ``|value| / 10**exponent`` (ties up)."""
    exact = abs(Decimal(value)).scaleb(-exponent)
    return int(exact.quantize(Decimal(1), rounding=ROUND_HALF_UP))


def to_fixed(value: float, digits: int) -> str:
    """``Number.prototype.toFixed(digits)``."""
    if not math.isfinite(value) or abs(value) >= 1e21:
        return js_number_repr(value)
    n = _scaled(value, -digits)
    text = str(n).rjust(digits + 1, "0")
    body = text if digits == 0 else f"{text[:-digits]}.{text[-digits:]}"
    return ("-" if value < 0 else "") + body


def _digits(value: float, precision: int) -> tuple[str, int]:
    """``precision`` significant digits of ``|value|`` and the decimal exponent of the first one."""
    exponent = Decimal(abs(value)).adjusted()
    n = _scaled(value, exponent - precision + 1)
    if n >= 10**precision:
        exponent += 1
        n = _scaled(value, exponent - precision + 1)
    return str(n), exponent


def _exp_suffix(exponent: int) -> str:
    return f"e{'+' if exponent >= 0 else '-'}{abs(exponent)}"


def to_precision(value: float, precision: int) -> str:
    """``Number.prototype.toPrecision(precision)``."""
    if not math.isfinite(value):
        return js_number_repr(value)
    sign = "-" if value < 0 else ""
    if value == 0:
        return "0" if precision == 1 else "0." + "0" * (precision - 1)
    digits, exponent = _digits(value, precision)
    if exponent < -6 or exponent >= precision:
        mantissa = digits[0] + ("." + digits[1:] if precision > 1 else "")
        return sign + mantissa + _exp_suffix(exponent)
    if exponent >= 0:
        whole, frac = digits[: exponent + 1], digits[exponent + 1 :]
        return sign + whole + ("." + frac if frac else "")
    return sign + "0." + "0" * (-exponent - 1) + digits


def to_exponential(value: float, fraction_digits: int) -> str:
    """``Number.prototype.toExponential(fraction_digits)``."""
    if not math.isfinite(value):
        return js_number_repr(value)
    sign = "-" if value < 0 else ""
    if value == 0:
        return "0" + ("." + "0" * fraction_digits if fraction_digits else "") + "e+0"
    digits, exponent = _digits(value, fraction_digits + 1)
    mantissa = digits[0] + ("." + digits[1:] if fraction_digits else "")
    return sign + mantissa + _exp_suffix(exponent)


def _strip_decimal(text: str) -> str:
    if "." not in text:
        return text
    return re.sub(r"(?:\.0*|(\.\d*[1-9])0+)$", lambda m: m.group(1) or "", text)


def _normalize_exp(text: str) -> str:
    if "E" not in text:
        return text
    text = re.sub(r"(?:\.0*|(\.\d*[1-9])0+)[Ee]", lambda m: (m.group(1) or "") + "E", text)
    return re.sub(r"(E[+-])(\d)$", r"\g<1>0\2", text)


def _small_exp(value: float) -> str:
    width = 12 if value < 0 else 11
    text = _strip_decimal(to_fixed(value, 12))
    if len(text) <= width:
        return text
    text = to_precision(value, 10)
    return text if len(text) <= width else to_exponential(value, 5)


def _large_exp(value: float) -> str:
    text = _strip_decimal(to_fixed(value, 11))
    too_long = len(text) > (12 if value < 0 else 11)
    return to_precision(value, 6) if too_long or text in ("0", "-0") else text


def general_number(value: float) -> str:
    """SheetJS ``SSF_general`` for a number: int32 values as they are, others in up to 11 characters."""
    if math.isfinite(value) and float(value).is_integer() and -(2**31) <= value < 2**31:
        return str(int(value))
    if not math.isfinite(value):
        return "#NUM!" if math.isnan(value) else "#DIV/0!"
    value = float(value)
    magnitude = math.floor(math.log(abs(value)) * _LOG10E)
    if -4 <= magnitude <= -1:
        text = to_precision(value, 10 + magnitude)
    elif abs(magnitude) <= 9:
        text = _small_exp(value)
    elif magnitude == 10:
        text = to_fixed(value, 10)[:12]
    else:
        text = _large_exp(value)
    return _strip_decimal(_normalize_exp(text.upper()))


__all__ = ["general_number", "js_number_string", "to_exponential", "to_fixed", "to_precision"]
